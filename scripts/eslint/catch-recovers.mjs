// ESLint rule: a command catches only what it recovers from, and says what (CONTRIBUTING.md,
// "Adding a command"). Everything else goes to the command wrapper (src/commands/register.ts),
// which shows a failure once, with Sign In, Retry or Show Log. So every `catch` in
// src/commands carries a comment, inside its block or on its line, that says "Recovers…"
// (or "recovers from…"); `scripts/catch-budget.mjs` holds how many there may be.

const RECOVERS = /\brecover/i;

export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'Every catch in src/commands says what it recovers from.' },
    schema: [],
    messages: {
      silent:
        'Catch only what you recover from, and say what in a comment ("Recovers from …"); let the rest go to the command wrapper, which shows it once with a way forward.',
    },
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    return {
      CatchClause(node) {
        const line = node.loc.start.line;
        const said = source
          .getAllComments()
          .some((c) => RECOVERS.test(c.value) && ((c.range[0] >= node.range[0] && c.range[1] <= node.range[1]) || c.loc.start.line === line));
        if (!said) context.report({ node, messageId: 'silent' });
      },
    };
  },
};
