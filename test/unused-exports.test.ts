// No dead exports: every export of a module of src/ is imported somewhere in src/, test/ or
// scripts/ (a script names a built module and the export's name), or exported by a package
// entry (src/index.ts, src/node.ts), the library API. The exports unused today are listed in test/expectations/unused-exports.txt,
// each a debt to pay off: the test fails on an unused export not in the list, and on a listed one
// that is used again or gone, so the list only shrinks. An export that only tests import (none
// of src/, no script, no entry) is used, but may be dead code kept alive by its own test (tidy31:
// sortByArgumentTexts, whose last caller went in split30): those are listed apart, in
// test/expectations/test-only-exports.txt, and the test fails on one not listed there and on a
// listed one that src/ uses again or that is gone. It reads the syntax only (TypeScript's
// parser, no type checker), which keeps it fast. A type named in a used export's signature is
// used (the declaration output names it), and a dynamic import destructured at once uses the
// names it takes (tidy32 found `limitErrorAt` hidden by `await import` counting as every name).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const LIST = join(ROOT, 'test/expectations/unused-exports.txt');
const TEST_ONLY_LIST = join(ROOT, 'test/expectations/test-only-exports.txt');

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, ext));
    else if (ext.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** A module of src/ relative to src/ (`reach/magic.ts`), or undefined for one outside src/. */
function srcModule(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const rel = relative(SRC, resolve(dirname(from), spec)).replace(/\.js$/, '.ts');
  return rel.startsWith('..') ? undefined : rel;
}

function hasExport(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** What one source text exports by name, and which names of which modules it uses (`*`: all). */
export function readModule(path: string, text: string): { exports: string[]; uses: [string, string][]; refs: [string, string][] } {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const exports: string[] = [];
  const uses: [string, string][] = [];
  // An exported declaration's type references (`[export, type name]`): a type that appears in an
  // export's signature is used wherever that export is, since the declaration output names it.
  const refs: [string, string][] = [];
  const typesOf = (name: string, node: ts.Node): void => {
    const visit = (n: ts.Node): void => {
      if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName)) refs.push([name, n.typeName.text]);
      ts.forEachChild(n, visit);
    };
    visit(node);
  };
  const use = (spec: ts.Expression | undefined, name: string): void => {
    const m = spec !== undefined && ts.isStringLiteral(spec) ? srcModule(path, spec.text) : undefined;
    if (m !== undefined) uses.push([m, name]);
  };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c === undefined) continue;
      if (c.name !== undefined) use(st.moduleSpecifier, 'default');
      const nb = c.namedBindings;
      if (nb !== undefined && ts.isNamespaceImport(nb)) use(st.moduleSpecifier, '*');
      else if (nb !== undefined) for (const el of nb.elements) use(st.moduleSpecifier, (el.propertyName ?? el.name).text);
    } else if (ts.isExportDeclaration(st)) {
      const ec = st.exportClause;
      if (ec === undefined) use(st.moduleSpecifier, '*');
      else if (ts.isNamedExports(ec)) {
        for (const el of ec.elements) {
          exports.push(el.name.text);
          if (st.moduleSpecifier !== undefined) use(st.moduleSpecifier, (el.propertyName ?? el.name).text);
        }
      }
    } else if (hasExport(st)) {
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name)) continue;
          exports.push(d.name.text);
          if (d.type !== undefined) typesOf(d.name.text, d.type);
        }
      } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) && st.name !== undefined) {
        exports.push(st.name.text);
        typesOf(st.name.text, ts.isFunctionDeclaration(st) ? signatureOnly(st) : st);
      }
    }
  }
  // A dynamic import destructured at once (`const { a } = await import('./x.js')`) uses the names
  // it takes; any other (`await import('./x.js')` kept whole) may use anything the module exports.
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const names = destructuredNames(n);
      for (const name of names ?? ['*']) use(n.arguments[0], name);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { exports, uses, refs };
}

/** A function's parameters and return type, without its body (what its declaration output names). */
function signatureOnly(fn: ts.FunctionDeclaration): ts.Node {
  return ts.factory.createFunctionTypeNode(fn.typeParameters, fn.parameters, fn.type ?? ts.factory.createKeywordTypeNode(ts.SyntaxKind.VoidKeyword));
}

/** The names `const { a, b: c } = await import(...)` takes from the module, or undefined for any other use. */
function destructuredNames(call: ts.CallExpression): string[] | undefined {
  const awaited = ts.isAwaitExpression(call.parent) ? call.parent : undefined;
  const decl = awaited?.parent;
  if (decl === undefined || !ts.isVariableDeclaration(decl) || !ts.isObjectBindingPattern(decl.name)) return undefined;
  const names: string[] = [];
  for (const el of decl.name.elements) {
    const key = el.propertyName ?? el.name;
    if (el.dotDotDotToken !== undefined || !ts.isIdentifier(key)) return undefined;
    names.push(key.text);
  }
  return names;
}

/** The modules of src/ that package.json's `exports` publishes (`./dist/node.js` is `node.ts`). */
function packageEntries(): string[] {
  const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, { default: string }>;
  return Object.values(exports).map((e) => e.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
}

/**
 * The exports of src/ nobody uses (`unused`) and those only tests import (`testOnly`), each as
 * `module: name`, sorted.
 */
function exportUses(): { unused: string[]; testOnly: string[] } {
  const exported = new Map<string, string[]>();
  // Uses by src/ (and, below, by scripts), and uses by tests, apart.
  const used = new Set<string>();
  const byTests = new Set<string>();
  const signatureRefs = new Map<string, string[]>();
  for (const f of files(SRC, /\.ts$/)) {
    const { exports, uses, refs } = readModule(f, readFileSync(f, 'utf8'));
    const m = relative(SRC, f);
    exported.set(m, exports);
    for (const [m, name] of uses) used.add(`${m}: ${name}`);
    for (const [name, type] of refs) if (exports.includes(type)) signatureRefs.set(`${m}: ${name}`, [...(signatureRefs.get(`${m}: ${name}`) ?? []), `${m}: ${type}`]);
  }
  for (const f of files(join(ROOT, 'test'), /\.ts$/)) {
    for (const [m, name] of readModule(f, readFileSync(f, 'utf8')).uses) byTests.add(`${m}: ${name}`);
  }
  // The API: the package's entries (package.json `exports`: src/index.ts, src/node.ts) are used by
  // definition, and so is what they re-export; their own exports are not checked.
  for (const entry of packageEntries()) exported.delete(entry);
  // Scripts reach built modules by path (dist/pipeline/stages.js) and use names from them, at
  // times in another script than the one that loads the module (fuzz-run.mjs loads, fuzz-worker.mjs
  // calls): a module some script names may have any name some script uses.
  const scripts = files(join(ROOT, 'scripts'), /\.mjs$/).map((f) => readFileSync(f, 'utf8')).join('\n');
  for (const [m, names] of exported) {
    if (!scripts.includes(m.replace(/\.ts$/, '.js'))) continue;
    for (const n of names) if (new RegExp(`\\b${n}\\b`).test(scripts)) used.add(`${m}: ${n}`);
  }
  closeOverSignatures(used, signatureRefs);
  closeOverSignatures(byTests, signatureRefs);
  const unused: string[] = [];
  const testOnly: string[] = [];
  for (const [m, names] of exported) {
    if (used.has(`${m}: *`)) continue;
    for (const n of new Set(names)) {
      if (used.has(`${m}: ${n}`)) continue;
      (byTests.has(`${m}: *`) || byTests.has(`${m}: ${n}`) ? testOnly : unused).push(`${m}: ${n}`);
    }
  }
  return { unused: unused.sort(), testOnly: testOnly.sort() };
}

/** Adds to `uses` every type named in the signature of an export in it, and theirs in turn (a worklist). */
function closeOverSignatures(uses: Set<string>, refs: ReadonlyMap<string, readonly string[]>): void {
  const todo = [...uses];
  for (let u = todo.pop(); u !== undefined; u = todo.pop()) {
    for (const t of refs.get(u) ?? []) {
      if (uses.has(t)) continue;
      uses.add(t);
      todo.push(t);
    }
  }
}

function listed(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).sort();
}

describe('no export nobody imports', () => {
  const { unused, testOnly } = exportUses();
  const known = listed(LIST);
  const knownTestOnly = listed(TEST_ONLY_LIST);
  if (process.env.UNUSED_DUMP) writeFileSync(process.env.UNUSED_DUMP, unused.join('\n'));
  if (process.env.TEST_ONLY_DUMP) writeFileSync(process.env.TEST_ONLY_DUMP, testOnly.join('\n'));

  it('has no unused export beyond the listed debt', () => {
    expect(unused.filter((u) => !known.includes(u))).toEqual([]);
  });

  it('lists no export that is used again or gone (the list only shrinks)', () => {
    expect(known.filter((k) => !unused.includes(k))).toEqual([]);
  });

  it('has no export only tests import beyond the listed test hooks', () => {
    expect(testOnly.filter((u) => !knownTestOnly.includes(u))).toEqual([]);
  });

  it('lists no test hook that src/ uses again or that is gone', () => {
    expect(knownTestOnly.filter((k) => !testOnly.includes(k))).toEqual([]);
  });

  it('takes the package entries from package.json', () => {
    expect(packageEntries()).toEqual(['index.ts', 'node.ts']);
  });

  it('would see an export nobody imports, and the imports that use one', () => {
    const a = readModule(join(SRC, 'reach/x.ts'), "import { b as c, type D } from './y.js';\nimport * as ns from '../gdl/ast.js';\nexport { e } from './z.js';\nexport function f(a: I): void { const z: J = a; }\nexport const g = 1, h = 2;\nexport interface I {}\nawait import('./w.js');\nconst { k, l: m } = await import('./v.js');");
    expect(a.exports).toEqual(['e', 'f', 'g', 'h', 'I']);
    // The signature's types, not the body's.
    expect(a.refs).toEqual([['f', 'I']]);
    expect(a.uses).toEqual([['reach/y.ts', 'b'], ['reach/y.ts', 'D'], ['gdl/ast.ts', '*'], ['reach/z.ts', 'e'], ['reach/w.ts', '*'], ['reach/v.ts', 'k'], ['reach/v.ts', 'l']]);
  });
});
