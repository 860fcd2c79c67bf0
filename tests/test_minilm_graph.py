"""The graph rewrites behind the int8 English encoder compute what they replace."""

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from retrieval.index import minilm_graph


def model_of(nodes, constants, width=8, out_width=8):
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, width])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, out_width])],
        [numpy_helper.from_array(np.asarray(value, dtype=np.float32), name)
         for name, value in constants.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(model, x):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x.astype(np.float32)})[0]


def gelu_model():
    return model_of([helper.make_node("Div", ["x", "root2"], ["a"]),
                     helper.make_node("Erf", ["a"], ["b"]),
                     helper.make_node("Add", ["b", "one"], ["c"]),
                     helper.make_node("Mul", ["half", "c"], ["d"]),
                     helper.make_node("Mul", ["x", "d"], ["y"])],
                    {"root2": np.sqrt(2), "one": 1.0, "half": 0.5})


def test_the_five_nodes_of_gelu_become_one():
    x = np.random.default_rng(0).normal(size=(5, 8)) * 3
    before = run(gelu_model(), x)
    fused = minilm_graph.fuse_gelu(gelu_model())
    assert [node.op_type for node in fused.graph.node] == ["Gelu"]
    assert not fused.graph.initializer
    np.testing.assert_allclose(run(fused, x), before, atol=1e-6)


def test_a_graph_without_the_six_attention_layers_is_refused():
    with pytest.raises(ValueError, match="expected 6 attention layers"):
        minilm_graph.fuse_attention(gelu_model())


def test_a_product_quantized_per_token_is_the_float_product_to_about_a_percent():
    rng = np.random.default_rng(1)
    weight = rng.normal(size=(64, 8))
    model = model_of([helper.make_node("MatMul", ["x", "w"], ["y"], name="down")],
                     {"w": weight}, width=64)
    # Rows of very different ranges, as GELU's outputs are: one scale each.
    ranges = np.array([[0.01], [0.1], [1], [10], [100], [0]])
    x = np.maximum(rng.normal(size=(6, 64)), -0.17) * ranges
    quantized = minilm_graph.per_token_int8(model, ["down"])
    assert "MatMulInteger" in [node.op_type for node in quantized.graph.node]
    exact, approximate = x @ weight, run(quantized, x)
    for row in range(5):
        error = np.abs(approximate[row] - exact[row]).max() / np.abs(exact[row]).max()
        assert error < 0.03, (row, error)  # 8 bits each side: about 1%
    assert not approximate[5].any()


def test_a_product_named_that_is_not_there_is_refused():
    with pytest.raises(ValueError, match="not found"):
        minilm_graph.per_token_int8(gelu_model(), ["down"])
