"""The benchmarks (``manage.py bookbench``): how well the pipeline reads and the shelf answers.

They measure the runtime packages from outside and are never imported by them.
"""
