/**
 * The tokens of `fastParseTree` (./fastTree.ts): whitespace and comments, strings, numbers and
 * the words true/false/null, read with `charCodeAt` from a position that moves forward. Any
 * thing that is not plain JSON with comments throws `notPlain`, which only the tree builder
 * catches. Pure.
 */

/** Thrown to leave the fast path; never escapes `fastParseTree`. */
export class NotPlain extends Error {}
export const notPlain = new NotPlain();

export const enum C {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Slash = 0x2f,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
  Star = 0x2a,
  E = 0x45,
  e = 0x65,
}

export class PlainJsonScanner {
  /** The offset of the next character to read. */
  pos = 0;
  private readonly n: number;

  constructor(private readonly text: string) {
    this.n = text.length;
  }

  get atEnd(): boolean {
    return this.pos >= this.n;
  }

  /** Skips whitespace and comments; returns the next character's code (NaN at the end). */
  skip(): number {
    const text = this.text;
    for (;;) {
      const ch = text.charCodeAt(this.pos);
      if (ch === C.Space || ch === C.Lf || ch === C.Cr || ch === C.Tab) this.pos++;
      else if (ch === C.Slash) {
        const next = text.charCodeAt(this.pos + 1);
        if (next === C.Slash) {
          this.pos += 2;
          while (this.pos < this.n && !isLineBreak(text.charCodeAt(this.pos))) this.pos++;
        } else if (next === C.Star) {
          const end = text.indexOf('*/', this.pos + 2);
          if (end < 0) throw notPlain;
          this.pos = end + 2;
        } else throw notPlain;
      } else return ch;
    }
  }

  /** The string starting at `pos` (a quote), decoded; `pos` moves past it. */
  string(): string {
    const text = this.text;
    const start = this.pos;
    let escaped = false;
    for (this.pos++; ; this.pos++) {
      if (this.pos >= this.n) throw notPlain;
      const ch = text.charCodeAt(this.pos);
      if (ch === C.Quote) break;
      if (ch === C.Backslash) {
        escaped = true;
        this.pos++;
      } else if (ch < 0x20) throw notPlain;
    }
    this.pos++;
    if (!escaped) return text.slice(start + 1, this.pos - 1);
    try {
      // JSON's escapes are the scanner's: \" \\ \/ \b \f \n \r \t \uXXXX.
      return JSON.parse(text.slice(start, this.pos)) as string;
    } catch {
      throw notPlain;
    }
  }

  /** A JSON number at `pos`, up to the end of its token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  number(): number {
    const text = this.text;
    const start = this.pos;
    if (text.charCodeAt(this.pos) === C.Minus) this.pos++;
    if (text.charCodeAt(this.pos) === C.Zero) this.pos++;
    else this.digits();
    if (text.charCodeAt(this.pos) === C.Dot) {
      this.pos++;
      this.digits();
    }
    const ch = text.charCodeAt(this.pos);
    if (ch === C.e || ch === C.E) {
      this.pos++;
      const sign = text.charCodeAt(this.pos);
      if (sign === C.Plus || sign === C.Minus) this.pos++;
      this.digits();
    }
    const value = Number(text.slice(start, this.pos));
    this.endOfToken();
    return value;
  }

  /** The literal word `w` (true, false, null) at `pos`, up to the end of its token. */
  word(w: string): void {
    if (!this.text.startsWith(w, this.pos)) throw notPlain;
    this.pos += w.length;
    this.endOfToken();
  }

  private digits(): number {
    const start = this.pos;
    while (this.pos < this.n) {
      const ch = this.text.charCodeAt(this.pos);
      if (ch < C.Zero || ch > C.Nine) break;
      this.pos++;
    }
    if (this.pos === start) throw notPlain;
    return this.pos - start;
  }

  /** After a literal word or number: the next character must end the token. */
  private endOfToken(): void {
    if (this.pos >= this.n) return;
    const ch = this.text.charCodeAt(this.pos);
    if (ch !== C.Space && ch !== C.Tab && ch !== C.Lf && ch !== C.Cr && ch !== C.Comma && ch !== C.CloseBracket && ch !== C.CloseBrace && ch !== C.Slash)
      throw notPlain;
  }
}

function isLineBreak(ch: number): boolean {
  return ch === C.Lf || ch === C.Cr;
}
