/**
 * AI SDK 7's entry points, resolved from this package (ai@7): a suite in another package (the
 * framework suite's Node 22 lane, whose own `ai` is ai@6) drives AI SDK 7 through this module.
 */
export { generateText, stepCountIs, tool } from 'ai';
export { scriptedModelV4 } from './scripted-model-v4.js';
