// A global state (vscode.Memento) in memory: a watcher built by a test or a benchmark keeps its
// list here, apart from the extension's real one.
import type * as vscode from 'vscode';

export class MemoryState implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}
