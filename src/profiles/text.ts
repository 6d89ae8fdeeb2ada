/**
 * Text helpers the exposure models share: byte and character budgets cut the way the harnesses cut
 * them, and a tool's definition as a provider receives it.
 */
import type { Tool } from '../catalog/types.ts';
import type { ToolDefinition } from './types.ts';

const encoder = new TextEncoder();

/** UTF-8 length of `s` in bytes. */
export function utf8Bytes(s: string): number {
  return encoder.encode(s).length;
}

/**
 * The longest prefix of `s` that fits in `maxBytes` UTF-8 bytes, cut at a character boundary
 * (never inside a surrogate pair).
 */
export function cutToBytes(s: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let bytes = 0;
  let i = 0;
  for (const ch of s) {
    const b = utf8Bytes(ch);
    if (bytes + b > maxBytes) break;
    bytes += b;
    i += ch.length;
  }
  return s.slice(0, i);
}

/** The first `maxChars` Unicode characters (code points) of `s`. */
export function cutToChars(s: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  const chars = Array.from(s);
  return chars.length <= maxChars ? s : chars.slice(0, maxChars).join('');
}

/** Number of Unicode characters (code points). */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A catalog tool as a definition in front of the model: its id (the name the model calls), description and input schema. */
export function toolDefinition(tool: Tool): ToolDefinition {
  return { name: tool.id, description: tool.description, inputSchema: tool.inputSchema };
}

/** The ids of the tools `allowed` lets through (all when undefined), in catalog order, optionally filtered. */
export function allowedIds(tools: readonly Tool[], allowed: Uint8Array | undefined, keep: (t: Tool) => boolean = () => true): string[] {
  const out: string[] = [];
  for (let i = 0; i < tools.length; i++) {
    if (allowed && allowed[i] !== 1) continue;
    const t = tools[i]!;
    if (keep(t)) out.push(t.id);
  }
  return out;
}
