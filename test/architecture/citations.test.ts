// Every citation in a code comment leads to a document in the repository: a cited file exists, a cited section
// number, heading or row id exists in it, and nothing cites a document the repository does not hold
// (design notes, the service specification). Comments are read with the TypeScript parser, so strings that merely
// name a served document ('/auth.md') are not citations. The test also plants bad citations to show it can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('../..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'data', 'test-output', '.git']);
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Every source, script and test file of the repository. */
function codeFiles(dir = ROOT): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...codeFiles(path));
    else if (CODE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The comments of a file, consecutive line comments joined into one block (a citation may wrap). */
export function commentBlocks(fileName: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const ranges = new Map<number, ts.CommentRange>();
  const collect = (pos: number) => {
    for (const r of ts.getLeadingCommentRanges(text, pos) ?? []) ranges.set(r.pos, r);
    for (const r of ts.getTrailingCommentRanges(text, pos) ?? []) ranges.set(r.pos, r);
  };
  const visit = (node: ts.Node) => {
    collect(node.getFullStart());
    collect(node.getEnd());
    node.forEachChild(visit);
  };
  visit(source);
  collect(source.endOfFileToken.getFullStart());
  const blocks: { line: number; text: string; end: number }[] = [];
  for (const r of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
    const body = text.slice(r.pos, r.end).replace(/^\/\/|^\/\*+|\*+\/$/g, '').replace(/\n\s*\*/g, '\n');
    const last = blocks[blocks.length - 1];
    if (last && /^\s*$/.test(text.slice(last.end, r.pos)) && !text.slice(last.end, r.pos).includes('\n\n')) {
      last.text += ` ${body}`;
      last.end = r.end;
    } else {
      blocks.push({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: body, end: r.end });
    }
  }
  return blocks.map(({ line, text: t }) => ({ line, text: t.replace(/\s+/g, ' ') }));
}

interface Doc {
  headings: string[]; // heading text without the #s
  rows: Set<string>; // ids that open a table row or a heading ("R5", "O1")
}

const docs = new Map<string, Doc | null>();

function readDoc(path: string): Doc | null {
  if (!docs.has(path)) {
    const file = join(ROOT, path);
    if (!existsSync(file) || !statSync(file).isFile()) docs.set(path, null);
    else {
      const text = readFileSync(file, 'utf8');
      const headings = [...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]);
      const rows = new Set<string>();
      for (const m of text.matchAll(/^\|\s*([A-Z]\d+)\b/gm)) rows.add(m[1]);
      for (const h of headings) for (const m of h.matchAll(/\b([A-Z]\d+)\b/g)) rows.add(m[1]);
      docs.set(path, { headings, rows });
    }
  }
  return docs.get(path) ?? null;
}

/** A quoted heading matches a heading of the file, with or without its section number. */
function hasHeading(doc: Doc, quoted: string): boolean {
  const want = quoted.toLowerCase();
  return doc.headings.some((h) => h.toLowerCase() === want || h.replace(/^[\d.]+\s+/, '').toLowerCase() === want);
}

function hasSection(doc: Doc, number: string): boolean {
  return doc.headings.some((h) => h.startsWith(`${number} `) || h.startsWith(`${number}. `));
}

// A document path (docs/checks.md, README.md, test/security/README.md) not part of a URL path or file pattern.
const DOC_PATH = /(?<![\w/.{}*<>-])((?:[\w.-]+\/)*[\w-]+\.md)\b/g;
// Public standards cited by section: their sections are not ours to check.
const STANDARD = /\b(?:RFC\s?\d+|HTML)\b/g;
const OUTSIDE = [
  { re: /\bdesign\/[\w.-]*/g, why: 'the design notes are not in the repository' },
  { re: /\b(?:service-)?spec(?:ification)?(?:'s)?\s*(?:§|section\s+\d)/gi, why: 'the service specification is not in the repository' },
  { re: /\bservice-spec\.md\b/g, why: 'the service specification is not in the repository' },
];

/**
 * The citation errors of one comment text, or [] when every citation resolves. A document path may be followed by
 * a quoted heading, then section numbers and row ids (R5, O1), each of which must exist in that document. A
 * section sign belongs to the nearest document or standard (RFC 9309, HTML) named before it in the same comment;
 * one that follows neither is an error.
 */
export function citationErrors(comment: string): string[] {
  const errors: string[] = [];
  for (const { re, why } of OUTSIDE) for (const m of comment.matchAll(re)) errors.push(`"${m[0]}": ${why}`);
  type Anchor = { at: number; end: number; doc: string | null };
  const anchors: Anchor[] = [];
  for (const m of comment.matchAll(DOC_PATH)) anchors.push({ at: m.index, end: m.index + m[0].length, doc: m[1] });
  for (const m of comment.matchAll(STANDARD)) anchors.push({ at: m.index, end: m.index + m[0].length, doc: null });
  anchors.sort((a, b) => a.at - b.at);
  for (const a of anchors) {
    if (a.doc === null) continue;
    if (a.doc.startsWith('design/')) continue; // reported above
    const doc = readDoc(a.doc);
    if (!doc) {
      errors.push(`"${a.doc}": no such file in the repository`);
      continue;
    }
    // What follows the path: a quoted heading, then sections and row ids, separated by commas, "and", "/" or "–".
    let rest = comment.slice(a.end);
    const heading = /^,?\s*"([^"]+)"/.exec(rest);
    if (heading) {
      if (!hasHeading(doc, heading[1])) errors.push(`${a.doc} has no heading "${heading[1]}"`);
      rest = rest.slice(heading[0].length);
    }
    for (;;) {
      const ref = /^(?:\s|,|\band\b|\/|–|-)*(?:§(\d+(?:\.\d+)*)|\b([A-Z]\d+)\b)/.exec(rest);
      if (!ref) break;
      if (ref[1] !== undefined && !hasSection(doc, ref[1])) errors.push(`${a.doc} has no section §${ref[1]}`);
      if (ref[2] !== undefined && !doc.rows.has(ref[2])) errors.push(`${a.doc} defines no row ${ref[2]}`);
      rest = rest.slice(ref[0].length);
    }
  }
  // Every § belongs to the nearest document or standard named before it in the same comment.
  for (const m of comment.matchAll(/§\s?(\d+(?:\.\d+)*)/g)) {
    const owner = anchors.filter((a) => a.end <= m.index).pop();
    if (!owner) errors.push(`"${m[0]}" names no document`);
    else if (owner.doc !== null) {
      const doc = readDoc(owner.doc);
      if (doc && !hasSection(doc, m[1])) errors.push(`${owner.doc} has no section §${m[1]}`);
    }
  }
  return [...new Set(errors)];
}

test('every citation in a code comment resolves to a file, section, heading or row of the repository', () => {
  const problems: string[] = [];
  for (const file of codeFiles()) {
    const rel = relative(ROOT, file);
    for (const block of commentBlocks(rel, readFileSync(file, 'utf8'))) {
      for (const e of citationErrors(block.text)) problems.push(`${rel}:${block.line}: ${e}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the documents of the repository cite neither the design notes nor the service specification', () => {
  const files = ['README.md', 'CHANGELOG.md', 'test/security/README.md', ...readdirSync(join(ROOT, 'docs')).map((n) => `docs/${n}`)];
  const problems: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const { re, why } of OUTSIDE) for (const m of text.matchAll(re)) problems.push(`${file}: "${m[0]}": ${why}`);
  }
  assert.deepEqual(problems, []);
});

test('the checker fails on planted bad citations and passes good ones', () => {
  // Resolving citations, as the code writes them.
  for (const good of [
    'caps of docs/security.md R5, R6 and the "Caps" table',
    'the fetch plan (docs/checks.md §2) and the fixes (docs/checks.md §4 and §7)',
    'layers (docs/architecture.md, "Layers")',
    'docs/security.md "Scan targets"',
    'groups are rebuilt (RFC 9309 §2.2.1); other records (§2.2.4) are ignored',
    'GET /auth.md and /api/v1/scan/{scan_id}/brief.md are served documents, not citations',
  ]) {
    assert.deepEqual(citationErrors(good), [], good);
  }
  // Each planted citation must be reported.
  const planted: [string, RegExp][] = [
    ['depth cap (design/security.md R5)', /design notes are not in the repository/],
    ['see spec §4 rule 5', /specification is not in the repository/],
    ['as the specification section 9 says', /specification is not in the repository/],
    ['the catalogue (docs/nothing-here.md)', /no such file/],
    ['docs/checks.md §42', /no section §42/],
    ['docs/architecture.md "A heading nobody wrote"', /no heading "A heading nobody wrote"/],
    ['docs/security.md Z9', /defines no row Z9/],
    ['the politeness rule (§1.6)', /names no document/],
    ['checks.md §5', /"checks.md": no such file/],
  ];
  for (const [text, expected] of planted) {
    const errors = citationErrors(text);
    assert.ok(errors.some((e) => expected.test(e)), `${text} → ${JSON.stringify(errors)}`);
  }
  // And through the comment reader: a citation in a block comment of a planted source text.
  const source = `/** Caps (design/checks.md §2). */\nexport const x = '/llms.txt and design/ in a string are not comments';\n`;
  const found = commentBlocks('planted.ts', source).flatMap((b) => citationErrors(b.text));
  assert.equal(found.length, 1, JSON.stringify(found));
});
