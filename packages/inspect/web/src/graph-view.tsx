/** The lineage graph as SVG; record nodes are links that open the record in the Records tab. */
import type { EvidenceView } from '@ewp/core';
import { useMemo } from 'preact/hooks';
import { type GraphNode, lineageGraph } from './graph.js';

function NodeBox({ node }: { node: GraphNode }) {
  const x = node.x - node.width / 2;
  const y = node.y - node.height / 2;
  return (
    <>
      <rect x={x} y={y} width={node.width} height={node.height} rx={6} class={`node node-${node.kind}`} />
      <text x={node.x} y={node.y - 3} text-anchor="middle" class="node-label">
        {node.label.length > 32 ? `${node.label.slice(0, 31)}…` : node.label}
      </text>
      <text x={node.x} y={node.y + 12} text-anchor="middle" class="node-kind">
        {node.kind}
      </text>
      <title>{`${node.kind} ${node.label}: ${node.detail}`}</title>
    </>
  );
}

export function GraphPanel({ view, trust, open }: { view: EvidenceView; trust: Record<string, string>; open: (record: string) => void }) {
  const graph = useMemo(() => lineageGraph(view, trust), [view, trust]);
  return (
    <div>
      <h2>Lineage graph</h2>
      <p class="muted">
        Sources → records → the proposition; parent sources, lineage edges (derived_from, supersedes, superseded_by) and conflicts. Select a record to open it.
        {graph.omittedRecords > 0 ? ` ${graph.omittedRecords} more records are not drawn.` : ''}
      </p>
      <div class="graph-scroll">
        {/* biome-ignore lint/a11y/useSemanticElements: an SVG drawing of links, named as one group */}
        <svg
          width={graph.width}
          height={graph.height}
          viewBox={`0 0 ${graph.width} ${graph.height}`}
          role="group"
          aria-label={`Lineage graph of ${view.proposition_id}: ${graph.nodes.length} nodes, ${graph.edges.length} edges`}
          data-testid="lineage-graph"
        >
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
            </marker>
          </defs>
          {graph.edges.map((e, i) => (
            <g key={`${e.from}-${e.to}-${i}`} class={`edge edge-${e.kind}`}>
              <polyline points={e.points.map((p) => `${p.x},${p.y}`).join(' ')} marker-end="url(#arrow)" />
              {e.points.length > 0 && e.kind !== 'source' ? (
                <text
                  x={e.points[Math.floor(e.points.length / 2)]?.x}
                  y={(e.points[Math.floor(e.points.length / 2)]?.y ?? 0) - 3}
                  class="edge-label"
                  text-anchor="middle"
                >
                  {e.label}
                </text>
              ) : null}
            </g>
          ))}
          {graph.nodes.map((node) =>
            node.record !== undefined ? (
              <a
                key={node.id}
                href={`#record-${node.record}`}
                class="node-link"
                data-node-kind={node.kind}
                data-record={node.record}
                onClick={(e) => {
                  e.preventDefault();
                  open(node.record as string);
                }}
              >
                <NodeBox node={node} />
              </a>
            ) : (
              <g key={node.id} data-node-kind={node.kind}>
                <NodeBox node={node} />
              </g>
            ),
          )}
        </svg>
      </div>
    </div>
  );
}
