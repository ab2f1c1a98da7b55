// Queries whose whole answer is one large domain object (allocation candidates: ~30,000 fields
// for 1,000 hosts) are written straight to JSON bytes from that object, the way the REST facade
// writes its body, instead of building the result tree and serialising it (which costs several
// times the search, most of it garbage collection).
//
// Only the root field is executed, by the normal (compiled) executor on a copy of the document
// whose selection of that field is cut down to `__typename`: authentication, authorisation, the
// resolver and its errors are exactly as for any query. The selection below it is compiled once
// per document into a writer over the object specs the schema module declares (an ObjectSpec per
// GraphQL type, field by field). A selection the specs do not cover (fragments, directives, a
// field without a spec, a repeated response key), an answer with errors, and an answer over the
// result budget all take the normal path: the writer only reproduces plain, successful answers.
import {
  type DocumentNode,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { memoOnFrozen } from '../lib/frozen-memo';
import { JsonBytes } from '../lib/json-bytes';
import { type DirectRoot, NotDirect, type ObjectSpec } from './direct-answer-spec';

/** How many answers were sent as written directly (tests read it). */
export const directAnswerStats = { written: 0 };

/** Counts list items the way the result budget does. */
interface Counter {
  items: number;
}

type Writer = (w: JsonBytes, source: unknown, count: Counter) => void;

/** A document answered directly: the cut-down document to execute and the writer of the rest. */
export interface DirectPlan {
  readonly root: DirectRoot;
  /** The root field's response key (its alias or name). */
  readonly key: string;
  /** The document with the root field's selection replaced by `__typename`. */
  readonly pruned: DocumentNode;
  /** Writes the root field's value. */
  readonly write: Writer;
}

/**
 * JavaScript source being generated for one plan, and the spec functions it calls (`r0`, `r1`
 * ...). A writer assembled from shared closures would call every spec through the same few call
 * sites, which V8 cannot inline; generated code gives each field its own (graphql-jit's method).
 */
interface Source {
  readonly refs: unknown[];
  vars: number;
}

function ref(src: Source, fn: unknown): string {
  src.refs.push(fn);
  return `r${src.refs.length - 1}`;
}

/**
 * Statements writing the fields of `set` on `spec`'s type from variable `v`; undefined when the
 * specs do not cover the selection.
 */
function objectCode(
  src: Source,
  spec: ObjectSpec<never>,
  v: string,
  set: SelectionSetNode,
): string | undefined {
  const parts: string[] = [];
  const keys = new Set<string>();
  const collect = (s: SelectionSetNode): boolean => {
    for (const sel of s.selections) {
      // Fragments are the executor's: graphql-jit orders fragment fields its own way.
      if (sel.directives?.length || sel.kind !== Kind.FIELD) {
        return false;
      }
      const key = sel.alias?.value ?? sel.name.value;
      if (keys.has(key) || sel.arguments?.length) {
        return false; // merged response keys: leave them to the executor
      }
      const code = fieldCode(src, spec, v, sel.name.value, sel.selectionSet);
      if (code === undefined) {
        return false;
      }
      const prefix = `${keys.size ? ',' : '{'}${JSON.stringify(key)}:`;
      keys.add(key);
      parts.push(`w.raw(${JSON.stringify(prefix)});`, code);
    }
    return true;
  };
  if (!collect(set)) {
    return undefined;
  }
  parts.push(`w.raw(${JSON.stringify(keys.size ? '}' : '{}')});`);
  return parts.join('\n');
}

function fieldCode(
  src: Source,
  spec: ObjectSpec<never>,
  v: string,
  name: string,
  set: SelectionSetNode | undefined,
): string | undefined {
  if (name === '__typename') {
    return set ? undefined : `w.raw(${JSON.stringify(JSON.stringify(spec.typeName))});`;
  }
  const field = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
  if (!field) {
    return undefined;
  }
  if ('leaf' in field) {
    return set ? undefined : `c.items += ${ref(src, field.leaf)}(w, ${v});`;
  }
  if (!set) {
    return undefined;
  }
  const n = ++src.vars;
  const item = `v${n}`;
  if ('object' in field) {
    const body = objectCode(src, field.object, item, set);
    return body && `{ const ${item} = ${ref(src, field.get)}(${v});\n${body}\n}`;
  }
  const body = objectCode(src, field.list, item, set);
  if (body === undefined) {
    return undefined;
  }
  const keepFrozen = field.list.keepFrozen === true;
  if (field.items) {
    const a = `a${n}`;
    const i = `i${n}`;
    return [
      `w.raw('['); { const ${a} = ${ref(src, field.items)}(${v}); c.items += ${a}.length;`,
      `for (let ${i} = 0; ${i} < ${a}.length; ${i}++) { const ${item} = ${a}[${i}];`,
      `if (${i}) { w.raw(','); }`,
      ...kept(src, item, keepFrozen, 'continue', body),
      `} } w.raw(']');`,
    ].join('\n');
  }
  const first = `f${n}`;
  return [
    `w.raw('['); let ${first} = true;`,
    // The count of the items is added after the call: \`c.items += f()\` would read c.items before
    // the items' own lists add to it.
    `const n${n} = ${ref(src, field.each)}(${v}, (${item}) => {`,
    `if (${first}) { ${first} = false; } else { w.raw(','); }`,
    ...kept(src, item, keepFrozen, 'return', body),
    `}); c.items += n${n}; w.raw(']');`,
  ].join('\n');
}

/**
 * `body` for list item `item`; with `keepFrozen`, a frozen item's bytes (and list items) are
 * kept per selection and copied from then on (`skip` leaves the item: continue or return).
 */
function kept(src: Source, item: string, keepFrozen: boolean, skip: string, body: string) {
  if (!keepFrozen) {
    return [body];
  }
  return [
    `const k = ${ref(src, new WeakMap<object, { bytes: Buffer; items: number }>())};`,
    `const hit = k.get(${item});`,
    `if (hit) { w.bytes(hit.bytes); c.items += hit.items; ${skip}; }`,
    'const mark = w.length, items = c.items;',
    body,
    `if (Object.isFrozen(${item})) { k.set(${item}, { bytes: w.since(mark), items: c.items - items }); }`,
  ];
}

/** The writer of `set` on `spec`'s type, compiled to a function; undefined = not covered. */
function compileSelection(spec: ObjectSpec<never>, set: SelectionSetNode): Writer | undefined {
  const src: Source = { refs: [], vars: 0 };
  const body = objectCode(src, spec, 'v0', set);
  if (body === undefined) {
    return undefined;
  }
  const bind = src.refs.map((_, i) => `const r${i} = refs[${i}];`).join('\n');
  // The source is built from spec names and JSON-quoted response keys only.
  return new Function('refs', `${bind}\nreturn function write(w, v0, c) {\n${body}\n};`)(
    src.refs,
  ) as Writer;
}

/**
 * The plan for `op` of `doc` when it is a query of exactly one root field in `roots`, without
 * directives, whose selection the specs cover; undefined otherwise.
 */
export function planDirectAnswer(
  doc: DocumentNode,
  op: OperationDefinitionNode,
  roots: readonly DirectRoot[],
): DirectPlan | undefined {
  if (
    op.operation !== 'query' ||
    op.directives?.length ||
    op.selectionSet.selections.length !== 1
  ) {
    return undefined;
  }
  const field = op.selectionSet.selections[0]!;
  if (field.kind !== Kind.FIELD || field.directives?.length || !field.selectionSet) {
    return undefined;
  }
  const root = roots.find((r) => r.field === field.name.value);
  if (!root) {
    return undefined;
  }
  const write = compileSelection(root.spec, field.selectionSet);
  if (!write) {
    return undefined;
  }
  const typename: SelectionSetNode = {
    kind: Kind.SELECTION_SET,
    selections: [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }],
  };
  const prunedOp: OperationDefinitionNode = {
    ...op,
    selectionSet: { ...op.selectionSet, selections: [{ ...field, selectionSet: typename }] },
  };
  return {
    root,
    key: field.alias?.value ?? field.name.value,
    pruned: { ...doc, definitions: doc.definitions.map((d) => (d === op ? prunedOp : d)) },
    write,
  };
}

/** An answer written directly, with the list items it holds. */
interface Written {
  readonly bytes: Buffer;
  readonly items: number;
}

/**
 * `{"data":{"<key>":…}}` for `value`, with the number of list items written (what the result
 * budget would have counted). The bytes of a frozen value (a shared candidates answer) are kept
 * with it, per plan: callers must not change them.
 */
export function writeDirectAnswer(plan: DirectPlan, value: unknown): Written | undefined {
  return memoOnFrozen(value, plan, () => write(plan, value));
}

function write(plan: DirectPlan, value: unknown): Written | undefined {
  const w = new JsonBytes();
  const count: Counter = { items: 0 };
  try {
    w.raw(`{"data":{${JSON.stringify(plan.key)}:`);
    plan.write(w, value, count);
  } catch (err) {
    w.discard();
    if (err instanceof NotDirect) {
      return undefined;
    }
    throw err;
  }
  return { bytes: w.raw('}}').done(), items: count.items };
}
