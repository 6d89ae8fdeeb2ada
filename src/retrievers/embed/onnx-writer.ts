/**
 * A small, dependency-free writer for the subset of the ONNX protobuf format that a static
 * (lookup-table) encoder needs: a model with one graph of plain nodes, tensor initializers
 * (raw little-endian data), int64/int32/float attributes and typed graph inputs/outputs.
 *
 * Output is a pure function of the input: fields are written in one fixed order (field-number
 * order), nothing depends on the clock, maps or the host's byte order, so the same model gives
 * the same bytes everywhere (the committed model's sha256 is reproducible).
 *
 * Field numbers follow `onnx/onnx.proto3` (ONNX IR version 7, opset 13 is what this project writes;
 * onnxruntime 1.14 to 1.30 load it).
 */

/** ONNX `TensorProto.DataType` values used here. */
export const OnnxType = {
  FLOAT: 1,
  INT8: 3,
  INT32: 6,
  INT64: 7,
} as const;
export type OnnxTypeCode = (typeof OnnxType)[keyof typeof OnnxType];

/** ONNX `AttributeProto.AttributeType` values used here. */
const AttrType = { FLOAT: 1, INT: 2, INTS: 7 } as const;

// ---------------------------------------------------------------------------------------------
// Protobuf wire format (proto3): varint, length-delimited and fixed32 fields.
// ---------------------------------------------------------------------------------------------

/** A growable byte buffer with protobuf field writers. */
export class ProtoWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
  }

  /** An unsigned varint of a non-negative safe integer or bigint (negative int64 → 10-byte two's complement). */
  varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
    return this;
  }

  private tag(field: number, wireType: 0 | 1 | 2 | 5): void {
    this.varint((field << 3) | wireType);
  }

  bytes(data: Uint8Array): this {
    this.ensure(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    return this;
  }

  /** Field of wire type 0 (int32, int64, enum, bool). Proto3 default 0 is still written when asked to. */
  fieldVarint(field: number, value: number | bigint): this {
    this.tag(field, 0);
    return this.varint(value);
  }

  /** Field of wire type 2 holding raw bytes. */
  fieldBytes(field: number, data: Uint8Array): this {
    this.tag(field, 2);
    this.varint(data.length);
    return this.bytes(data);
  }

  fieldString(field: number, s: string): this {
    return this.fieldBytes(field, new TextEncoder().encode(s));
  }

  /** An embedded message. */
  fieldMessage(field: number, message: ProtoWriter): this {
    return this.fieldBytes(field, message.finish());
  }

  /** Field of wire type 5 holding one float32, little-endian. */
  fieldFloat(field: number, value: number): this {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    return this.bytes(b);
  }

  /** Packed repeated int64 (wire type 2). */
  fieldPackedVarints(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.varint(v);
    return this.fieldMessage(field, inner);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

// ---------------------------------------------------------------------------------------------
// ONNX model description.
// ---------------------------------------------------------------------------------------------

/** A tensor initializer. `data` is written as raw little-endian bytes. */
export interface OnnxTensor {
  name: string;
  type: OnnxTypeCode;
  dims: readonly number[];
  data: Float32Array | Int8Array | Int32Array | BigInt64Array;
}

export type OnnxAttribute = { name: string; int: number } | { name: string; ints: readonly number[] } | { name: string; float: number };

export interface OnnxNode {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name: string;
  attributes?: readonly OnnxAttribute[];
}

/** A graph input or output: element type and shape (a number is a fixed size, a string a symbolic one). */
export interface OnnxValueInfo {
  name: string;
  type: OnnxTypeCode;
  shape: readonly (number | string)[];
}

export interface OnnxModel {
  irVersion: number;
  opset: number;
  producerName: string;
  producerVersion: string;
  docString?: string;
  graph: {
    name: string;
    nodes: readonly OnnxNode[];
    initializers: readonly OnnxTensor[];
    inputs: readonly OnnxValueInfo[];
    outputs: readonly OnnxValueInfo[];
  };
}

/** Little-endian bytes of a typed array, independent of the host's byte order. */
export function littleEndianBytes(data: OnnxTensor['data']): Uint8Array {
  const out = new Uint8Array(data.length * data.BYTES_PER_ELEMENT);
  const view = new DataView(out.buffer);
  if (data instanceof Float32Array) for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i]!, true);
  else if (data instanceof Int8Array) for (let i = 0; i < data.length; i++) view.setInt8(i, data[i]!);
  else if (data instanceof Int32Array) for (let i = 0; i < data.length; i++) view.setInt32(i * 4, data[i]!, true);
  else for (let i = 0; i < data.length; i++) view.setBigInt64(i * 8, data[i]!, true);
  return out;
}

function tensorProto(t: OnnxTensor): ProtoWriter {
  const expected = t.dims.reduce((a, b) => a * b, 1);
  if (expected !== t.data.length) throw new RangeError(`tensor "${t.name}": dims ${JSON.stringify(t.dims)} hold ${expected} values, data has ${t.data.length}`);
  const w = new ProtoWriter();
  if (t.dims.length) w.fieldPackedVarints(1, t.dims); // dims
  w.fieldVarint(2, t.type); // data_type
  w.fieldString(8, t.name); // name
  w.fieldBytes(9, littleEndianBytes(t.data)); // raw_data
  return w;
}

function attributeProto(a: OnnxAttribute): ProtoWriter {
  const w = new ProtoWriter();
  w.fieldString(1, a.name); // name
  if ('float' in a) {
    w.fieldFloat(2, a.float); // f
    w.fieldVarint(20, AttrType.FLOAT);
  } else if ('int' in a) {
    w.fieldVarint(3, a.int); // i
    w.fieldVarint(20, AttrType.INT);
  } else {
    w.fieldPackedVarints(8, a.ints); // ints
    w.fieldVarint(20, AttrType.INTS);
  }
  return w;
}

function nodeProto(n: OnnxNode): ProtoWriter {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.fieldString(1, i);
  for (const o of n.outputs) w.fieldString(2, o);
  w.fieldString(3, n.name);
  w.fieldString(4, n.opType);
  for (const a of n.attributes ?? []) w.fieldMessage(5, attributeProto(a));
  return w;
}

function valueInfoProto(v: OnnxValueInfo): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of v.shape) {
    const dim = new ProtoWriter();
    if (typeof d === 'number')
      dim.fieldVarint(1, d); // dim_value
    else dim.fieldString(2, d); // dim_param
    shape.fieldMessage(1, dim);
  }
  const tensorType = new ProtoWriter().fieldVarint(1, v.type).fieldMessage(2, shape); // elem_type, shape
  const type = new ProtoWriter().fieldMessage(1, tensorType); // TypeProto.tensor_type
  return new ProtoWriter().fieldString(1, v.name).fieldMessage(2, type);
}

/** The serialised `ModelProto` of `model`. */
export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const g = model.graph;
  const graph = new ProtoWriter();
  for (const n of g.nodes) graph.fieldMessage(1, nodeProto(n)); // node
  graph.fieldString(2, g.name); // name
  for (const t of g.initializers) graph.fieldMessage(5, tensorProto(t)); // initializer
  for (const i of g.inputs) graph.fieldMessage(11, valueInfoProto(i)); // input
  for (const o of g.outputs) graph.fieldMessage(12, valueInfoProto(o)); // output

  const w = new ProtoWriter();
  w.fieldVarint(1, model.irVersion); // ir_version
  w.fieldString(2, model.producerName); // producer_name
  w.fieldString(3, model.producerVersion); // producer_version
  if (model.docString !== undefined) w.fieldString(6, model.docString); // doc_string
  w.fieldMessage(7, graph); // graph
  w.fieldMessage(8, new ProtoWriter().fieldString(1, '').fieldVarint(2, model.opset)); // opset_import (default domain)
  return w.finish();
}
