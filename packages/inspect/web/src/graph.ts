/**
 * The lineage graph of one snapshot: sources → records → the proposition, parent sources,
 * derived_from / supersedes / superseded_by edges and conflict pairs, laid out by dagre.
 */
import type { EvidenceView } from '@ewp/core';
import { Graph, layout } from '@dagrejs/dagre';

type NodeKind = 'proposition' | 'source' | 'assertion' | 'evidence' | 'check' | 'conflict' | 'other';

export interface GraphNode {
  id: string;
  kind: NodeKind;
  /** The record or source id shown. */
  label: string;
  detail: string;
  /** The record id to open, for record nodes. */
  record?: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface GraphEdge {
  from: string;
  to: string;
  label: string;
  kind: string;
  points: { x: number; y: number }[];
}

export interface LaidOutGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
  /** Records left out to keep the layout readable. */
  omittedRecords: number;
}

/** Most records drawn; the rest are counted in `omittedRecords`. */
const MAX_GRAPH_RECORDS = 300;

const NODE_HEIGHT = 40;
const widthOf = (text: string) => Math.min(260, Math.max(90, 14 + text.length * 7.2));

/** Build and lay out the graph of a view. */
export function lineageGraph(view: EvidenceView, originTrust: Record<string, string>): LaidOutGraph {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 60, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const nodes = new Map<string, Omit<GraphNode, 'x' | 'y'>>();
  const edges: Omit<GraphEdge, 'points'>[] = [];
  const addNode = (n: Omit<GraphNode, 'x' | 'y' | 'width' | 'height'>) => {
    if (nodes.has(n.id)) return;
    const node = { ...n, width: widthOf(n.label), height: NODE_HEIGHT };
    nodes.set(n.id, node);
    g.setNode(n.id, { width: node.width, height: node.height });
  };
  const drawn = new Set<string>();
  const addEdge = (from: string, to: string, label: string, kind: string) => {
    // Records sharing a source share its parent edge: draw it once.
    const key = `${from}\u0000${to}\u0000${label}`;
    if (kind === 'parent_source' && drawn.has(key)) return;
    drawn.add(key);
    edges.push({ from, to, label, kind });
    g.setEdge(from, to, { label }, `${kind}:${edges.length}`);
  };
  const p = `P:${view.proposition_id}`;
  addNode({ id: p, kind: 'proposition', label: view.proposition_id, detail: 'proposition' });
  const records = [
    ...view.assertions.map((a) => ({ kind: 'assertion' as const, id: a.assertion_id, source: a.source, edge: 'asserts', detail: a.text })),
    ...view.evidence.map((e) => ({ kind: 'evidence' as const, id: e.evidence_id, source: e.source, edge: e.polarity, detail: e.content })),
    ...view.checks.map((c) => ({ kind: 'check' as const, id: c.check_id, source: c.source, edge: `check: ${c.result}`, detail: `${c.method} (${c.result})` })),
  ];
  const shown = records.slice(0, MAX_GRAPH_RECORDS);
  const nodeIdOf = new Map<string, string>();
  for (const r of shown) {
    const id = `${r.kind}:${r.id}`;
    nodeIdOf.set(r.id, id);
    addNode({ id, kind: r.kind, label: r.id, detail: r.detail, record: r.id });
    const s = `S:${r.source.source_id}`;
    addNode({
      id: s,
      kind: 'source',
      label: r.source.source_id,
      detail: `${r.source.origin_type} (${originTrust[r.source.origin_type] ?? 'untrusted'}), lineage ${r.source.lineage_id}`,
    });
    nodeIdOf.set(r.source.source_id, nodeIdOf.get(r.source.source_id) ?? s);
    addEdge(s, id, 'from', 'source');
    addEdge(id, p, r.edge, r.kind);
    if (r.source.parent_source_id !== null) {
      const parent = `S:${r.source.parent_source_id}`;
      addNode({ id: parent, kind: 'source', label: r.source.parent_source_id, detail: 'parent source' });
      addEdge(parent, s, 'parent_source', 'parent_source');
    }
  }
  // Lineage and conflict ids name propositions, records or sources; unknown ones get a node of their own.
  const nodeFor = (id: string) => {
    if (id === view.proposition_id) return p;
    const known = nodeIdOf.get(id);
    if (known !== undefined) return known;
    const other = `X:${id}`;
    addNode({ id: other, kind: 'other', label: id, detail: 'not in this snapshot' });
    return other;
  };
  for (const e of view.lineage) addEdge(nodeFor(e.from_id), nodeFor(e.to_id), e.kind, 'lineage');
  for (const c of view.conflicts) {
    const id = `conflict:${c.conflict_id}`;
    addNode({ id, kind: 'conflict', label: c.conflict_id, detail: `${c.status}: ${c.note}` });
    for (const member of c.proposition_ids) addEdge(id, nodeFor(member), c.status, 'conflict');
  }
  layout(g);
  const graph = g.graph();
  return {
    nodes: [...nodes.values()].map((n) => {
      const laid = g.node(n.id);
      return { ...n, x: laid.x, y: laid.y };
    }),
    edges: edges.map((e, i) => ({ ...e, points: (g.edge({ v: e.from, w: e.to, name: `${e.kind}:${i + 1}` })?.points ?? []) as { x: number; y: number }[] })),
    width: graph.width ?? 0,
    height: graph.height ?? 0,
    omittedRecords: records.length - shown.length,
  };
}
