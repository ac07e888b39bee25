// What the project's ESLint rules call a property or a call by: `a.b`, `a['b']`, `f()`, `a.f()`.

/** The name of a property key or member: an identifier's, or a string literal's. */
export function propName(node) {
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

/** The name a call is made by: `f` of `f()` and of `a.f()`. */
export function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression') return propName(callee.property);
  return undefined;
}
