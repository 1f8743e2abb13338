/**
 * An ADK tool that stands in for another: the same name, description, declaration and confirmation
 * rule, so the model sees the inner tool; only `runAsync` is the wrapper's. BaseTool's own
 * `processLlmRequest` adds the (inner) declaration and registers the wrapper as the tool ADK calls.
 */
import { BaseTool, type Context, type RunAsyncToolRequest } from '@google/adk';

export abstract class WrappedTool extends BaseTool {
  protected readonly inner: BaseTool;

  constructor(inner: BaseTool) {
    super({ name: inner.name, description: inner.description, isLongRunning: inner.isLongRunning });
    this.inner = inner;
  }

  override _getDeclaration(): ReturnType<BaseTool['_getDeclaration']> {
    return this.inner._getDeclaration();
  }

  override checkRequireConfirmation(args: Record<string, unknown>, toolContext?: Context): Promise<boolean> {
    return this.inner.checkRequireConfirmation(args, toolContext);
  }

  abstract override runAsync(request: RunAsyncToolRequest): Promise<unknown>;
}
