import * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Filled in by the foundation work: connection, views, commands.
}

export function deactivate(): void {}
