/**
 * Portable `?` placeholders as PostgreSQL's numbered `$1, $2, …`. A `?` inside a string literal,
 * a quoted identifier or a comment is text, not a placeholder, and is left alone.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      // Up to the closing quote; a doubled quote is an escaped one and stays inside.
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? sql.length : end;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '?') {
      out += `$${++n}`;
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}
