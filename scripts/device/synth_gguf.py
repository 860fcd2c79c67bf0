#!/usr/bin/env python3
"""A stand-in for the embedded model: its architecture and tokenizer, random weights.

The real model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB) is too big to carry
to a measuring machine, and speed does not depend on what the weights say. So:

  extract REAL.gguf META.json.gz
      Write the real model's metadata (hyperparameters, tokenizer: tokens,
      merges, token types, special ids, chat template) and its tensor list
      (names, shapes, types) to a small gzipped JSON file.
  make META.json.gz OUT.gguf [--scale full|tiny] [--seed 0]
      Write an F16 GGUF with that metadata and the same tensors (names and
      shapes; norms and biases F32, like the converter writes them) filled
      with seeded random numbers. --scale tiny keeps the tokenizer but shrinks
      the network (2 layers, 256 wide) for quick tests on a CPU.
  quantize IN.gguf OUT.gguf [--ftype Q4_K_M] [--threads N]
      Quantize through llama-cpp-python's binding llama_cpp.llama_model_quantize.
  inspect GGUF [--meta META.json.gz]
      Print a JSON summary (architecture, layers, tensor types) and, with
      --meta, whether the tensor names, shapes and types match the real model.

The gguf package comes from --gguf-py DIR (or $GGUF_PY), a directory holding
it such as llama.cpp's gguf-py, else from the installed one. PyYAML, which
gguf's model-card code imports, is stubbed when it is missing.
"""

import argparse
import gzip
import json
import os
import sys
import time
import types
from collections import Counter

SKIP_KEYS = ("GGUF.", "general.file_type", "general.quantization_version", "quantize.")
POOL = (1 << 22) + 17  # random values reused round-robin: generating 1.5e9 is slow
TINY = {"block_count": 2, "embedding_length": 256, "feed_forward_length": 512,
        "attention.head_count": 4, "attention.head_count_kv": 2}


def import_gguf(path):
    path = path or os.environ.get("GGUF_PY")
    if path:
        sys.path.insert(0, path)
    try:
        import yaml  # noqa: F401
    except ImportError:  # only gguf.metadata (model cards) uses it
        sys.modules["yaml"] = types.ModuleType("yaml")
    import gguf
    return gguf


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] synth_gguf: {message}", flush=True)


# extract ---------------------------------------------------------------------

def extract(gguf, source, target):
    reader = gguf.GGUFReader(source)
    kv = []
    for field in reader.fields.values():
        if field.name.startswith(SKIP_KEYS):
            continue
        vtype = gguf.GGUFValueType(field.types[0])
        item = {"key": field.name, "type": vtype.name}
        value = field.contents()
        if vtype == gguf.GGUFValueType.ARRAY:
            item["sub_type"] = gguf.GGUFValueType(field.types[-1]).name
            value = list(value)
        item["value"] = value
        kv.append(item)
    tensors = [{"name": t.name, "shape": [int(n) for n in t.shape],
                "type": gguf.GGMLQuantizationType(t.tensor_type).name}
               for t in reader.tensors]
    meta = {"source": {"file": os.path.basename(source), "size": os.path.getsize(source)},
            "kv": kv, "tensors": tensors}
    with gzip.open(target, "wt", encoding="utf-8", compresslevel=9) as out:
        json.dump(meta, out, ensure_ascii=False)
    log(f"{len(kv)} keys, {len(tensors)} tensors -> {target} ({os.path.getsize(target)} bytes)")


# make ------------------------------------------------------------------------

def load_meta(path):
    with gzip.open(path, "rt", encoding="utf-8") as source:
        return json.load(source)


def hparams(meta):
    kv = {item["key"]: item["value"] for item in meta["kv"]}
    arch = kv["general.architecture"]
    return arch, {key[len(arch) + 1:]: value for key, value in kv.items()
                  if key.startswith(arch + ".")}


def shrink(meta):
    """Return (kv, tensors) for the tiny network: same tokenizer, fewer and narrower layers."""
    arch, hp = hparams(meta)
    n_embd, n_head = hp["embedding_length"], hp["attention.head_count"]
    n_head_kv = hp.get("attention.head_count_kv", n_head)
    head = hp.get("attention.key_length", n_embd // n_head)
    t_head = TINY["embedding_length"] // TINY["attention.head_count"]
    dims = {n_embd: TINY["embedding_length"], hp["feed_forward_length"]: TINY["feed_forward_length"],
            head * n_head_kv: t_head * TINY["attention.head_count_kv"], head * n_head: t_head * TINY["attention.head_count"]}
    if len({n_embd, hp["feed_forward_length"], head * n_head_kv}) < 3:
        raise SystemExit("cannot shrink: two of the real dimensions are equal")
    kv = []
    for item in meta["kv"]:
        key = item["key"][len(arch) + 1:] if item["key"].startswith(arch + ".") else None
        if key in TINY:
            item = {**item, "value": TINY[key]}
        elif key in ("attention.key_length", "attention.value_length", "rope.dimension_count"):
            item = {**item, "value": t_head}
        kv.append(item)
    tensors = []
    for tensor in meta["tensors"]:
        parts = tensor["name"].split(".")
        if parts[0] == "blk" and int(parts[1]) >= TINY["block_count"]:
            continue
        tensors.append({**tensor, "shape": [dims.get(n, n) for n in tensor["shape"]]})
    return kv, tensors


def make(gguf, meta_path, target, scale, seed):
    import numpy as np

    meta = load_meta(meta_path)
    kv, tensors = (meta["kv"], meta["tensors"]) if scale == "full" else shrink(meta)
    arch = next(item["value"] for item in kv if item["key"] == "general.architecture")
    writer = gguf.GGUFWriter(target, arch)
    for item in kv:
        key, vtype = item["key"], gguf.GGUFValueType[item["type"]]
        if key == "general.architecture":
            continue
        value = item["value"]
        if key == "general.name":
            value = f"synthetic random {value} ({scale})"
        sub = gguf.GGUFValueType[item["sub_type"]] if "sub_type" in item else None
        writer.add_key_value(key, value, vtype, sub_type=sub)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    # F16 for matrices; F32 for norms and biases (1-D), as convert_hf_to_gguf does
    plan = []
    for tensor in tensors:
        shape = list(reversed(tensor["shape"]))  # numpy order
        dtype = np.float16 if len(shape) > 1 else np.float32
        count = int(np.prod(shape))
        writer.add_tensor_info(tensor["name"], shape, np.dtype(dtype), count * np.dtype(dtype).itemsize)
        plan.append((tensor["name"], shape, dtype, count))
    total = sum(count for *_, count in plan)
    log(f"{arch}, scale {scale}: {len(plan)} tensors, {total / 1e9:.3f} G parameters -> {target}")

    started = time.monotonic()
    rng = np.random.default_rng(seed)
    pool = (rng.standard_normal(POOL, dtype=np.float32) * 0.02).astype(np.float16)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    for name, shape, dtype, count in plan:
        if name.endswith("norm.weight"):
            data = np.ones(count, dtype=dtype)
        else:
            data = np.empty(count, dtype=np.float16)
            done, offset = 0, int(rng.integers(POOL))
            while done < count:
                step = min(count - done, POOL - offset)
                data[done:done + step] = pool[offset:offset + step]
                done, offset = done + step, 0
            data = data.astype(dtype, copy=False)
        writer.write_tensor_data(data.reshape(shape))
    writer.close()
    log(f"wrote {os.path.getsize(target) / 2**20:.1f} MiB in {time.monotonic() - started:.1f} s")


# quantize --------------------------------------------------------------------

def quantize(source, target, ftype, threads):
    import ctypes

    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{ftype}")
    params.nthread = threads
    started = time.monotonic()
    code = llama_cpp.llama_model_quantize(source.encode(), target.encode(), ctypes.byref(params))
    if code != 0:
        raise SystemExit(f"llama_model_quantize returned {code}")
    log(f"quantized to {ftype} with {threads} threads in {time.monotonic() - started:.1f} s: "
        f"{os.path.getsize(target) / 2**20:.1f} MiB")


# inspect ---------------------------------------------------------------------

def read_header(path):
    """Return (scalar kv, [(name, shape, type id)]) of a GGUF, skipping arrays (fast, unlike GGUFReader)."""
    import struct

    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    formats = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
               10: "<Q", 11: "<q", 12: "<d"}
    with open(path, "rb") as f:
        def unpack(fmt, size):
            return struct.unpack(fmt, f.read(size))[0]

        def string():
            return f.read(unpack("<Q", 8)).decode("utf-8", "replace")

        if f.read(4) != b"GGUF":
            raise SystemExit(f"{path} is not a GGUF file")
        unpack("<I", 4)
        n_tensors, n_kv = unpack("<Q", 8), unpack("<Q", 8)
        kv = {}
        for _ in range(n_kv):
            key, vtype = string(), unpack("<I", 4)
            if vtype == 8:
                kv[key] = string()
            elif vtype == 9:
                itype, count = unpack("<I", 4), unpack("<Q", 8)
                if itype == 8:
                    for _ in range(count):
                        f.seek(unpack("<Q", 8), 1)
                else:
                    f.seek(sizes[itype] * count, 1)
            else:
                kv[key] = unpack(formats[vtype], sizes[vtype])
        tensors = []
        for _ in range(n_tensors):
            name, n_dims = string(), unpack("<I", 4)
            shape = [unpack("<Q", 8) for _ in range(n_dims)]
            ttype = unpack("<I", 4)
            unpack("<Q", 8)
            tensors.append((name, shape, ttype))
    return kv, tensors


def inspect(gguf, path, meta_path):
    kv, tensors = read_header(path)
    name_of = lambda ttype: gguf.GGMLQuantizationType(ttype).name
    arch = kv.get("general.architecture")
    summary = {
        "file": path, "bytes": os.path.getsize(path), "architecture": arch,
        "name": kv.get("general.name"), "layers": kv.get(f"{arch}.block_count"),
        "embedding": kv.get(f"{arch}.embedding_length"), "tensors": len(tensors),
        "parameters": sum(_product(shape) for _, shape, _ in tensors),
        "tensor_types": dict(sorted(Counter(name_of(t) for *_, t in tensors).items())),
    }
    if meta_path:
        meta = load_meta(meta_path)
        real = {t["name"]: (t["shape"], t["type"]) for t in meta["tensors"]}
        mine = {name: (shape, name_of(ttype)) for name, shape, ttype in tensors}
        summary["real"] = {"file": meta["source"]["file"], "bytes": meta["source"]["size"],
                           "tensor_types": dict(sorted(Counter(t for _, t in real.values()).items()))}
        summary["same_tensor_names_and_shapes"] = (
            {k: v[0] for k, v in real.items()} == {k: v[0] for k, v in mine.items()})
        summary["same_tensor_types"] = real == mine
        summary["type_differences"] = {k: [real[k][1], mine[k][1]] for k in real
                                       if k in mine and real[k][1] != mine[k][1]}
    print(json.dumps(summary, indent=1))
    return summary


def _product(shape):
    total = 1
    for n in shape:
        total *= n
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf-py", help="directory holding the gguf package (llama.cpp's gguf-py)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract")
    p.add_argument("source")
    p.add_argument("target")
    p = sub.add_parser("make")
    p.add_argument("meta")
    p.add_argument("target")
    p.add_argument("--scale", choices=["full", "tiny"], default="full")
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("quantize")
    p.add_argument("source")
    p.add_argument("target")
    p.add_argument("--ftype", default="Q4_K_M")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p = sub.add_parser("inspect")
    p.add_argument("path")
    p.add_argument("--meta")
    args = parser.parse_args(argv)
    if args.command == "quantize":
        return quantize(args.source, args.target, args.ftype, args.threads)
    gguf = import_gguf(args.gguf_py)
    if args.command == "extract":
        extract(gguf, args.source, args.target)
    elif args.command == "make":
        make(gguf, args.meta, args.target, args.scale, args.seed)
    else:
        inspect(gguf, args.path, args.meta)


if __name__ == "__main__":
    main()
