/**
 * A small, dependency-free reader for the subset of the ONNX protobuf format that `onnx-writer.ts`
 * writes: a `ModelProto` with its IR version, opset imports and one graph of plain nodes, tensor
 * initializers holding raw little-endian data, int/ints/float attributes and named graph
 * inputs/outputs. It exists so that the static encoder (`static-encoder.ts`) can take its tables
 * straight from the committed `onnx/model_quantized.onnx` without onnxruntime.
 *
 * Unknown fields are skipped (protobuf rules); a tensor whose data is not in `raw_data` (typed
 * `*_data` fields, external data) is reported with `data: null`, which the static encoder refuses.
 * Field numbers follow `onnx/onnx.proto3`.
 */

/** ONNX `TensorProto.DataType` values read here. */
export const ONNX_FLOAT = 1;
export const ONNX_INT8 = 3;
export const ONNX_INT64 = 7;

export interface OnnxTensorInfo {
  name: string;
  dataType: number;
  dims: number[];
  /** The `raw_data` bytes (a view on the file), or null when the data is stored any other way. */
  data: Uint8Array | null;
}

export interface OnnxAttributeInfo {
  name: string;
  int?: bigint;
  ints?: bigint[];
  float?: number;
}

export interface OnnxNodeInfo {
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  attributes: OnnxAttributeInfo[];
}

export interface OnnxModelInfo {
  irVersion: number;
  /** Opset version per domain ('' = the default ONNX domain). */
  opsets: Map<string, number>;
  nodes: OnnxNodeInfo[];
  initializers: OnnxTensorInfo[];
  inputs: string[];
  outputs: string[];
}

/**
 * The varint at `buf[p]`: its value and the position after it. `truncated` is the error when the
 * buffer ends inside it; with `limit`, one longer than 64 bits is an error too.
 */
function readVarint(buf: Uint8Array, p: number, truncated: string, limit: boolean): { value: bigint; end: number } {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    if (p >= buf.length) throw new RangeError(truncated);
    const b = buf[p++]!;
    v |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value: v, end: p };
    shift += 7n;
    if (limit && shift > 63n) throw new RangeError('onnx: varint too long');
  }
}

/** A protobuf field: its number, wire type and value (a bigint for varints, bytes for the others). */
type Field = { field: number; wire: 0; value: bigint } | { field: number; wire: 1 | 2 | 5; value: Uint8Array };

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let p = 0;
  const varint = (): bigint => {
    const { value, end } = readVarint(buf, p, 'onnx: truncated varint', true);
    p = end;
    return value;
  };
  const take = (n: number): Uint8Array => {
    if (n < 0 || p + n > buf.length) throw new RangeError('onnx: truncated field');
    const v = buf.subarray(p, p + n);
    p += n;
    return v;
  };
  while (p < buf.length) {
    const tag = varint();
    const field = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) out.push({ field, wire, value: varint() });
    else if (wire === 1) out.push({ field, wire, value: take(8) });
    else if (wire === 2) out.push({ field, wire, value: take(Number(varint())) });
    else if (wire === 5) out.push({ field, wire, value: take(4) });
    else throw new RangeError(`onnx: unsupported protobuf wire type ${wire}`);
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function str(f: Field): string {
  if (f.wire !== 2) throw new RangeError(`onnx: field ${f.field} is not a string`);
  return utf8.decode(f.value);
}

function bytes(f: Field): Uint8Array {
  if (f.wire !== 2) throw new RangeError(`onnx: field ${f.field} is not length-delimited`);
  return f.value;
}

function int(f: Field): bigint {
  if (f.wire !== 0) throw new RangeError(`onnx: field ${f.field} is not a varint`);
  return BigInt.asIntN(64, f.value);
}

/** A repeated int64 field: packed (wire type 2) or one varint per occurrence. */
function ints(f: Field, into: bigint[]): void {
  if (f.wire === 0) into.push(BigInt.asIntN(64, f.value));
  else if (f.wire === 2) for (const g of packedVarints(f.value)) into.push(g);
  else throw new RangeError(`onnx: field ${f.field} is not a repeated int`);
}

function packedVarints(buf: Uint8Array): bigint[] {
  const out: bigint[] = [];
  let p = 0;
  while (p < buf.length) {
    const { value, end } = readVarint(buf, p, 'onnx: truncated packed varint', false);
    p = end;
    out.push(BigInt.asIntN(64, value));
  }
  return out;
}

function tensor(buf: Uint8Array): OnnxTensorInfo {
  const dims: bigint[] = [];
  let dataType = 0;
  let name = '';
  let data: Uint8Array | null = null;
  let other = false;
  for (const f of fields(buf)) {
    if (f.field === 1) ints(f, dims);
    else if (f.field === 2) dataType = Number(int(f));
    else if (f.field === 8) name = str(f);
    else if (f.field === 9) data = bytes(f);
    else if (f.field >= 4 && f.field <= 7)
      other = true; // float_data, int32_data, string_data, int64_data
    else if (f.field === 10 || f.field === 11 || f.field === 13 || f.field === 14) other = true; // double_data, uint64_data, external_data, data_location
  }
  return { name, dataType, dims: dims.map(Number), data: other ? null : data };
}

function attribute(buf: Uint8Array): OnnxAttributeInfo {
  const a: OnnxAttributeInfo = { name: '' };
  for (const f of fields(buf)) {
    if (f.field === 1) a.name = str(f);
    else if (f.field === 2 && f.wire === 5) a.float = new DataView(f.value.buffer, f.value.byteOffset, 4).getFloat32(0, true);
    else if (f.field === 3) a.int = int(f);
    else if (f.field === 8) ints(f, (a.ints ??= []));
  }
  return a;
}

function node(buf: Uint8Array): OnnxNodeInfo {
  const n: OnnxNodeInfo = { opType: '', domain: '', inputs: [], outputs: [], attributes: [] };
  for (const f of fields(buf)) {
    if (f.field === 1) n.inputs.push(str(f));
    else if (f.field === 2) n.outputs.push(str(f));
    else if (f.field === 4) n.opType = str(f);
    else if (f.field === 5) n.attributes.push(attribute(bytes(f)));
    else if (f.field === 7) n.domain = str(f);
  }
  return n;
}

/** The name of a `ValueInfoProto`. */
function valueName(buf: Uint8Array): string {
  for (const f of fields(buf)) if (f.field === 1) return str(f);
  return '';
}

/** Parse a serialised ONNX `ModelProto` (the subset described in the file comment). */
export function readOnnxModel(buf: Uint8Array): OnnxModelInfo {
  const model: OnnxModelInfo = { irVersion: 0, opsets: new Map(), nodes: [], initializers: [], inputs: [], outputs: [] };
  let graphs = 0;
  for (const f of fields(buf)) {
    if (f.field === 1) model.irVersion = Number(int(f));
    else if (f.field === 8) {
      let domain = '';
      let version = 0;
      for (const g of fields(bytes(f))) {
        if (g.field === 1) domain = str(g);
        else if (g.field === 2) version = Number(int(g));
      }
      model.opsets.set(domain, version);
    } else if (f.field === 7) {
      graphs++;
      for (const g of fields(bytes(f))) {
        if (g.field === 1) model.nodes.push(node(bytes(g)));
        else if (g.field === 5) model.initializers.push(tensor(bytes(g)));
        else if (g.field === 11) model.inputs.push(valueName(bytes(g)));
        else if (g.field === 12) model.outputs.push(valueName(bytes(g)));
        else if (g.field === 15) throw new RangeError('onnx: sparse initializers are not supported');
      }
    }
  }
  if (graphs !== 1) throw new RangeError(`onnx: expected one graph, found ${graphs}`);
  return model;
}

/** An initializer's raw data as float32 values (little-endian). */
export function floatData(t: OnnxTensorInfo): Float32Array {
  if (t.dataType !== ONNX_FLOAT || t.data === null || t.data.length % 4 !== 0) throw new RangeError(`onnx: ${t.name} is not a raw float tensor`);
  const out = new Float32Array(t.data.length / 4);
  const view = new DataView(t.data.buffer, t.data.byteOffset, t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** An initializer's raw data as int8 values. */
export function int8Data(t: OnnxTensorInfo): Int8Array {
  if (t.dataType !== ONNX_INT8 || t.data === null) throw new RangeError(`onnx: ${t.name} is not a raw int8 tensor`);
  return new Int8Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.length));
}

/** An initializer's raw data as int64 values (little-endian). */
export function int64Data(t: OnnxTensorInfo): bigint[] {
  if (t.dataType !== ONNX_INT64 || t.data === null || t.data.length % 8 !== 0) throw new RangeError(`onnx: ${t.name} is not a raw int64 tensor`);
  const view = new DataView(t.data.buffer, t.data.byteOffset, t.data.length);
  return Array.from({ length: t.data.length / 8 }, (_, i) => view.getBigInt64(i * 8, true));
}
