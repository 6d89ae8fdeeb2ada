import { describe, expect, it } from 'vitest';
import { isEndpointRef, ollamaHost, resolveEndpoint } from './endpoint.ts';

describe('endpoint models', () => {
  it('are named openai:MODEL or ollama:MODEL', () => {
    expect(isEndpointRef('openai:text-embedding-3-small')).toBe(true);
    expect(isEndpointRef('ollama:nomic-embed-text')).toBe(true);
    expect(isEndpointRef('Xenova/all-MiniLM-L6-v2')).toBe(false);
    expect(isEndpointRef('./models/openai:x')).toBe(false);
  });

  it('read OPENAI_BASE_URL as the OpenAI SDK does, and mask credentials in what they show', () => {
    expect(resolveEndpoint('openai:m', {}).url).toBe('https://api.openai.com/v1/embeddings');
    expect(resolveEndpoint('openai:m', { OPENAI_BASE_URL: 'http://localhost:8000/v1/' }).url).toBe('http://localhost:8000/v1/embeddings');
    const e = resolveEndpoint('openai:m', { OPENAI_BASE_URL: 'https://user:hunter2@proxy.example/v1' });
    expect(e.shown).not.toContain('hunter2');
    expect(() => resolveEndpoint('openai:m', { OPENAI_BASE_URL: 'ftp://x' })).toThrow(/must be an http or https URL/);
    expect(() => resolveEndpoint('openai:', {})).toThrow(/name the model/);
  });

  it('read OLLAMA_HOST as Ollama does: scheme http and port 11434 unless given', () => {
    expect(ollamaHost(undefined)).toBe('http://127.0.0.1:11434');
    expect(ollamaHost('')).toBe('http://127.0.0.1:11434');
    expect(ollamaHost('gpu-box')).toBe('http://gpu-box:11434');
    expect(ollamaHost('gpu-box:9000')).toBe('http://gpu-box:9000');
    expect(ollamaHost(':9000')).toBe('http://127.0.0.1:9000');
    expect(ollamaHost('https://ollama.example')).toBe('https://ollama.example');
    expect(ollamaHost('http://10.0.0.2:11434/')).toBe('http://10.0.0.2:11434');
    expect(resolveEndpoint('ollama:nomic-embed-text', { OLLAMA_HOST: '0.0.0.0' }).url).toBe('http://0.0.0.0:11434/api/embed');
  });
});
