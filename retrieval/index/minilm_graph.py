"""Rewrites of the all-MiniLM-L6-v2 ONNX graph that make the int8 copy faster, same arithmetic.

Pure functions over an ``onnx.ModelProto`` (changed in place and returned), used
by ``retrieval.index.minilm.build`` once per machine. Measured on 460 passages
of the Octave manual, one text a run, one thread (``scripts/bench_embeddings.py``):

- ``fuse_attention``: the exported attention (reshapes, transposes, a scaled
  product, a mask made with Where, Softmax, a NaN guard) becomes one
  ``com.microsoft.MultiHeadAttention`` per layer; onnxruntime's own fusion does
  not recognise this export. With ``fuse_gelu``, 4.0 s of CPU became 3.6.
- ``fuse_gelu``: x·½(1 + erf(x/√2)), five nodes, becomes ``com.microsoft.Gelu``.
- ``per_token_int8``: the feed-forward down-projections that dynamic quantization
  leaves float (its one scale per run is too coarse for their input, the GELU's
  output) become int8 products whose input is quantized per token instead.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HEADS = 12
MICROSOFT = "com.microsoft"


def fuse_attention(model: onnx.ModelProto, heads: int = HEADS) -> onnx.ModelProto:
    """Replace each layer's attention (found from its Softmax) by one MultiHeadAttention
    reading the query, key and value projections and the padding mask."""
    graph = model.graph
    producer, consumers, constants = _index(graph)
    mask = "attention_mask_int32"
    added = [helper.make_node("Cast", ["attention_mask"], [mask], to=TensorProto.INT32,
                              name="attention_mask_to_int32")]
    for softmax in [node for node in graph.node if node.op_type == "Softmax"]:
        scores = producer[producer[softmax.input[0]].input[0]]  # Softmax ← Add(mask) ← MatMul
        query, key = (_projection(name, producer, constants) for name in scores.input)
        guarded = _only(consumers, _only(consumers, softmax.output[0], "IsNaN").output[0], "Where")
        context = _only(consumers, guarded.output[0], "MatMul")
        value = _projection(context.input[1], producer, constants)
        merged = _only(consumers, _only(consumers, context.output[0], "Transpose").output[0],
                       "Reshape")
        added.append(helper.make_node("MultiHeadAttention", [query, key, value, "", mask],
                                      [merged.output[0]], domain=MICROSOFT, num_heads=heads,
                                      name=f"{softmax.name}_attention"))
        merged.output[0] += "_replaced"
    if len(added) != 7:
        raise ValueError(f"expected 6 attention layers, found {len(added) - 1}")
    graph.node.extend(added)
    return _pruned(model)


def fuse_gelu(model: onnx.ModelProto) -> onnx.ModelProto:
    """Replace each Div → Erf → Add → Mul → Mul (exact GELU) by one Gelu node."""
    graph = model.graph
    producer, consumers, _ = _index(graph)
    added = []
    for erf in [node for node in graph.node if node.op_type == "Erf"]:
        x = producer[erf.input[0]].input[0]
        half = _only(consumers, _only(consumers, erf.output[0], "Add").output[0], "Mul")
        product = _only(consumers, half.output[0], "Mul")
        if x not in product.input:
            raise ValueError(f"{erf.name}: not the GELU pattern")
        added.append(helper.make_node("Gelu", [x], [product.output[0]], domain=MICROSOFT,
                                      name=f"{erf.name}_gelu"))
        product.output[0] += "_replaced"
    graph.node.extend(added)
    return _pruned(model)


def per_token_int8(model: onnx.ModelProto, names: list[str]) -> onnx.ModelProto:
    """Replace the float MatMuls named (constant weight) by int8 products: weights per
    output channel, symmetric; input per token (row), asymmetric uint8."""
    graph = model.graph
    _, _, constants = _index(graph)
    chosen = [node for node in graph.node if node.name in names]
    if len(chosen) != len(names):
        raise ValueError(f"MatMuls not found: {sorted(set(names) - {n.name for n in chosen})}")
    replaced = {node.name: _per_token_nodes(graph, node, constants) for node in chosen}
    nodes = [new for node in graph.node for new in replaced.get(node.name, [node])]
    del graph.node[:]
    graph.node.extend(nodes)
    return _pruned(model)


def _per_token_nodes(graph, node, constants) -> list:
    """Return the nodes computing node's product with per-token quantized input."""
    weight = numpy_helper.to_array(constants[node.input[1]]).astype(np.float32)
    scale = np.maximum(np.abs(weight).max(0), 1e-12) / 127
    quantized = np.clip(np.round(weight / scale), -127, 127).astype(np.int8)
    name = node.name
    values = {"w": quantized, "w_scale": scale.astype(np.float32),
              # the zero point's share of each output, taken off after the integer product
              "w_sum": quantized.astype(np.int32).sum(0).astype(np.float32),
              "zero": np.float32(0), "top": np.float32(255), "tiny": np.float32(1e-12)}
    graph.initializer.extend(numpy_helper.from_array(np.asarray(v), f"{name}_{k}")
                             for k, v in values.items())
    x, out = node.input[0], node.output[0]

    def n(op, inputs, output, **attributes):
        return helper.make_node(op, [i if i == x else f"{name}_{i}" for i in inputs],
                                [output if output == out else f"{name}_{output}"], **attributes)

    return [
        n("ReduceMax", [x], "high0", axes=[-1], keepdims=1),
        n("ReduceMin", [x], "low0", axes=[-1], keepdims=1),
        n("Max", ["high0", "zero"], "high"),  # the range holds 0, so 0 is exact
        n("Min", ["low0", "zero"], "low"),
        n("Sub", ["high", "low"], "range"),
        n("Div", ["range", "top"], "step0"),
        n("Max", ["step0", "tiny"], "step"),
        n("Div", ["low", "step"], "low_steps"),
        n("Round", ["low_steps"], "low_rounded"),
        n("Neg", ["low_rounded"], "zero_point"),
        n("Div", [x, "step"], "steps"),
        n("Round", ["steps"], "rounded"),
        n("Add", ["rounded", "zero_point"], "shifted"),
        n("Clip", ["shifted", "zero", "top"], "clipped"),
        n("Cast", ["clipped"], "x_u8", to=TensorProto.UINT8),
        n("MatMulInteger", ["x_u8", "w"], "product"),
        n("Cast", ["product"], "product_f", to=TensorProto.FLOAT),
        n("Mul", ["zero_point", "w_sum"], "offset"),
        n("Sub", ["product_f", "offset"], "centred"),
        n("Mul", ["step", "w_scale"], "scales"),
        n("Mul", ["centred", "scales"], out),
    ]


def _index(graph):
    producer = {output: node for node in graph.node for output in node.output}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    return producer, consumers, {tensor.name: tensor for tensor in graph.initializer}


def _projection(name: str, producer, constants) -> str:
    """Return the output of the projection (an Add of a 1-D constant bias) that name is
    reshaped, transposed or scaled from."""
    while True:
        node = producer[name]
        if node.op_type == "Add" and len(getattr(constants.get(node.input[1]), "dims", ())) == 1:
            return node.output[0]
        name = node.input[0]


def _only(consumers, name: str, op_type: str):
    found = [node for node in consumers.get(name, []) if node.op_type == op_type]
    if len(found) != 1:
        raise ValueError(f"{name}: expected one {op_type} reading it, found {len(found)}")
    return found[0]


def _pruned(model: onnx.ModelProto) -> onnx.ModelProto:
    """Drop the nodes and constants no output depends on; order the nodes to run."""
    graph = model.graph
    needed = {output.name for output in graph.output}
    kept = []
    for node in reversed(_ordered(graph)):
        if any(output in needed for output in node.output):
            kept.append(node)
            needed.update(node.input)
    del graph.node[:]
    graph.node.extend(reversed(kept))
    constants = [tensor for tensor in graph.initializer if tensor.name in needed]
    del graph.initializer[:]
    graph.initializer.extend(constants)
    if not any(opset.domain == MICROSOFT for opset in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MICROSOFT, 1))
    return model


def _ordered(graph) -> list:
    ready = {i.name for i in graph.input} | {t.name for t in graph.initializer} | {""}
    pending, order = list(graph.node), []
    while pending:
        waiting = []
        for node in pending:
            if all(name in ready for name in node.input):
                order.append(node)
                ready.update(node.output)
            else:
                waiting.append(node)
        if len(waiting) == len(pending):
            raise ValueError("the graph has a cycle or an input nothing makes")
        pending = waiting
    return order
