/**
 * `@ewp/ai-sdk/memory`: the evidence layer of `@ewp/memory` in an AI SDK (6 or 7) prompt: the system
 * prompt text (`memorySystemPrompt`) and a language-model middleware that adds it to every call
 * (`memoryContextMiddleware`). A subpath of its own, so the main entry does not load `@ewp/memory`.
 * @packageDocumentation
 */
export {
  type MemoryContextMiddleware,
  type MemoryContextOptions,
  type MemorySource,
  type MemorySystemPromptOptions,
  memoryContextMiddleware,
  memorySystemPrompt,
} from './memory-context.js';
