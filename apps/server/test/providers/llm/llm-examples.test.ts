import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';

const readme = readFileSync(
  path.resolve(import.meta.dirname, '../../../src/providers/llm/README.md'),
  'utf8',
);

/** The `env llm-example=<name>` blocks of the provider's README, as variables. */
function example(name: string): Record<string, string> {
  const block = new RegExp(`\`\`\`env llm-example=${name}\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  expect(block, `README block ${name}`).toBeDefined();
  return Object.fromEntries(
    block!
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

describe('the README example configurations', () => {
  it.each([
    ['deepseek', 'https://api.deepseek.com/v1', 'deepseek-chat', 'json_object'],
    ['qwen', 'https://dashscope.aliyuncs.com/compatible-mode/v1', 'qwen-plus', 'json_object'],
    ['ollama', 'http://127.0.0.1:11434/v1', 'qwen2.5:7b', 'json_schema'],
  ])('%s loads as a real endpoint', (name, baseUrl, model, responseFormat) => {
    const config = loadConfig(example(name));
    expect(config.llm).toMatchObject({ provider: 'openai', baseUrl, model, responseFormat });
  });
});
