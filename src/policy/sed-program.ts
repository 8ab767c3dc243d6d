// Whether a sed program reaches past its input: the w/W (write), r/R (read) and e (execute)
// commands, and the w and e flags of s///. These are exactly what GNU sed's --sandbox refuses,
// and the tests hold this reader to that oracle. The program is read the way sed reads it
// (addresses, regexes with their own delimiters and escapes, s and y parts, labels, a/i/c text),
// so `/start/,/end/p` is an address range and `p`, not an `s` command with an `e` flag.
// Text this reader cannot follow reads as reaching (fail closed): sed refuses most of it (a
// syntax error runs nothing, so asking costs a click), and where GNU sed is more lenient than
// this reader, guessing "no effect" could auto-approve a write. Linear.

/** The sed commands that take no argument. */
const PLAIN = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
/** The commands that touch other files or run a command. */
const REACHING = new Set(['w', 'W', 'r', 'R', 'e']);

/** The flags of s/// that only change the substitution, and the blanks sed allows among them. */
const FLAGS = 'gpiImM0123456789 \t';

type Outcome = 'reaches' | 'invalid';

/** Whether GNU sed would refuse this program under --sandbox (it writes, reads or runs something). */
export function sedProgramReaches(program: string): boolean {
  return new SedReader(program).read() !== 'none';
}

class SedReader {
  private i = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  read(): Outcome | 'none' {
    const text = this.text;
    for (;;) {
      this.skip(' \t\n;');
      if (this.i >= text.length) return 'none';
      const c = text[this.i]!;
      if (c === '#') {
        this.toLineEnd();
        continue;
      }
      if (c === '}') {
        this.i++;
        this.skipBlanks();
        if (!this.atCommandEnd()) return 'invalid';
        continue;
      }
      if (!this.address()) return 'invalid';
      this.skipBlanks();
      while (text[this.i] === '!') {
        this.i++;
        this.skipBlanks();
      }
      const outcome = this.command();
      if (outcome !== null) return outcome;
    }
  }

  /** One command after its address; null when it ends normally. */
  private command(): Outcome | null {
    const text = this.text;
    const c = text[this.i++];
    if (c === undefined) return 'invalid';
    if (c === '{') return null;
    if (REACHING.has(c)) return 'reaches';
    if (c === 's') return this.substitute();
    if (c === 'y') {
      const delimiter = text[this.i++];
      return this.part(delimiter, false) && this.part(delimiter, false) ? this.end() : 'invalid';
    }
    if (c === 'a' || c === 'i' || c === 'c') {
      this.text_();
      return null;
    }
    if (c === ':') {
      this.skipBlanks();
      if (this.atCommandEnd()) return 'invalid'; // a label needs a name
      this.toLabelEnd();
      return null;
    }
    if (c === 'b' || c === 't' || c === 'T' || c === 'v') {
      this.skipBlanks();
      this.toLabelEnd();
      return null;
    }
    if (c === 'q' || c === 'Q' || c === 'l' || c === 'L') {
      this.skipBlanks();
      while (isDigit(text[this.i])) this.i++;
      return this.end();
    }
    if (PLAIN.has(c)) return this.end();
    return 'invalid';
  }

  /** `s/regex/replacement/flags`: the w and e flags reach; the flags (blanks between them) end the command. */
  private substitute(): Outcome | null {
    const delimiter = this.text[this.i++];
    if (!this.part(delimiter, true) || !this.part(delimiter, false)) return 'invalid';
    for (;;) {
      const c = this.text[this.i];
      if (c === 'w' || c === 'e') return 'reaches';
      if (c !== undefined && FLAGS.includes(c)) this.i++;
      else return this.end();
    }
  }

  /**
   * Reads up to an unescaped `delimiter` (the one already read opened the part). In a regex a
   * bracket expression hides the delimiter (`s/[/]/x/`), as GNU sed reads it.
   */
  private part(delimiter: string | undefined, regex: boolean): boolean {
    if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
    const text = this.text;
    while (this.i < text.length) {
      const c = text[this.i]!;
      if (c === '\\') {
        this.i += 2;
        continue;
      }
      this.i++;
      if (c === delimiter) return true;
      if (regex && c === '[' && !this.bracket()) return false;
    }
    return false;
  }

  /** Past a bracket expression whose `[` was just read: `[]x]`, `[^]x]`, `[[:alpha:]/]`. */
  private bracket(): boolean {
    const text = this.text;
    if (text[this.i] === '^') this.i++;
    if (text[this.i] === ']') this.i++;
    while (this.i < text.length) {
      const c = text[this.i]!;
      if (c === ']') {
        this.i++;
        return true;
      }
      const kind = text[this.i + 1];
      if (c === '[' && (kind === ':' || kind === '.' || kind === '=')) {
        const close = text.indexOf(`${kind}]`, this.i + 2);
        if (close < 0) return false;
        this.i = close + 2;
        continue;
      }
      this.i++;
    }
    return false;
  }

  /** An optional address or range: `N`, `$`, `/re/`, `\cREc` (with I/M), `first~step`, `addr,addr`, `addr,+N`, `addr,~N`. */
  private address(): boolean {
    const one = this.single();
    if (one !== 'read') return one === 'none';
    this.skipBlanks();
    if (this.text[this.i] !== ',') return true;
    this.i++;
    this.skipBlanks();
    const c = this.text[this.i];
    if (c === '+' || c === '~') {
      this.i++; // GNU takes `1,+w x` as `1,+0` and `1,+ 2` as `1,+2`
      this.skipBlanks();
      while (isDigit(this.text[this.i])) this.i++;
      return true;
    }
    return this.single() === 'read';
  }

  private single(): 'read' | 'none' | 'invalid' {
    const text = this.text;
    const c = text[this.i];
    if (isDigit(c)) {
      while (isDigit(text[this.i])) this.i++;
      this.skipBlanks(); // `2 ~3` and `1~ 2` are steps to GNU sed
      if (text[this.i] === '~') {
        this.i++;
        this.skipBlanks();
        while (isDigit(text[this.i])) this.i++;
      }
      return 'read';
    }
    if (c === '$') {
      this.i++;
      return 'read';
    }
    if (c === '/' || c === '\\') {
      this.i += c === '\\' ? 2 : 1;
      if (!this.part(c === '\\' ? text[this.i - 1] : '/', true)) return 'invalid';
      // Flags, blanks allowed between them (`/x/ I w f`): there is no I or M command.
      for (this.skipBlanks(); text[this.i] === 'I' || text[this.i] === 'M'; this.skipBlanks()) this.i++;
      return 'read';
    }
    return 'none';
  }

  /** After a command: blanks, then `;`, a newline, `}`, `#` or the end. */
  private end(): Outcome | null {
    this.skipBlanks();
    return this.atCommandEnd() ? null : 'invalid';
  }

  private atCommandEnd(): boolean {
    const c = this.text[this.i];
    return c === undefined || c === ';' || c === '\n' || c === '}' || c === '#';
  }

  /** a/i/c text: to the end of the line, lines ending in a backslash continue it. */
  private text_(): void {
    const text = this.text;
    while (this.i < text.length && text[this.i] !== '\n') {
      if (text[this.i] === '\\') this.i++;
      this.i++;
    }
  }

  /** A label runs to a newline or `;` (GNU). */
  private toLabelEnd(): void {
    while (this.i < this.text.length && this.text[this.i] !== '\n' && this.text[this.i] !== ';') this.i++;
  }

  private toLineEnd(): void {
    while (this.i < this.text.length && this.text[this.i] !== '\n') this.i++;
  }

  private skipBlanks(): void {
    this.skip(' \t');
  }

  private skip(chars: string): void {
    while (this.i < this.text.length && chars.includes(this.text[this.i]!)) this.i++;
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
