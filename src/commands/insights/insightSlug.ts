/**
 * A suggested insight name that is also a tidy file name: lower case, words joined by single
 * dashes, nothing a shell or a file system would trip over ("Water extent, Taveuni (Fiji)" →
 * "water-extent-taveuni-fiji"). Letters of any script stay. Pure: no `vscode`.
 */
export function insightSlug(text: string, max = 80): string {
  const slug = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}._]+/gu, '-')
    .replace(/[-.]{2,}/g, (m) => (m.includes('.') && !m.includes('-') ? '.' : '-'))
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, max)
    .replace(/[-._]+$/g, '');
  return slug || 'insight';
}
