/**
 * The run's table (plain text) and chart (a hand-written SVG: wrong actions against needless
 * holds per arm).
 */
import type { BenchReport, Tally } from './run.js';

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** The summary table and the per-family table, as plain text. */
export function renderTable(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(
    `harm bench: ${report.scenarios} scenarios in ${report.families.length} families (truth: ${report.truth.act} act, ${report.truth.hold} hold), ${report.seconds} s`,
    '',
  );
  const cols: [string, (t: Tally) => number][] = [
    ['acted', (t) => t.acted],
    ['held', (t) => t.held],
    ['confirm', (t) => t.confirmations],
    ['wrong act', (t) => t.wrong_actions],
    ['wrong irrev.', (t) => t.wrong_irreversible],
    ['needless hold', (t) => t.needless_holds],
    ['confirm on act', (t) => t.confirm_on_act],
  ];
  const labelWidth = Math.max(4, ...report.arms.map((a) => a.label.length));
  lines.push([pad('arm', labelWidth), ...cols.map(([h]) => pad(h, Math.max(h.length, 5), true))].join('  '));
  for (const a of report.arms) lines.push([pad(a.label, labelWidth), ...cols.map(([h, f]) => pad(String(f(a.total)), Math.max(h.length, 5), true))].join('  '));
  for (const s of report.skipped) lines.push(`${pad(s.id, labelWidth)}  not run: ${s.reason}`);
  lines.push('', 'per family: wrong actions / needless holds / confirmations', '');
  const famWidth = Math.max(6, ...report.families.map((f) => f.length));
  const cellWidth = Math.max(9, ...report.arms.map((a) => a.id.length));
  lines.push([pad('family', famWidth), ...report.arms.map((a) => pad(a.id, cellWidth, true))].join('  '));
  for (const f of report.families) {
    const cells = report.arms.map((a) => {
      const t = a.by_family[f]!;
      return pad(`${t.wrong_actions}/${t.needless_holds}/${t.confirmations}`, cellWidth, true);
    });
    lines.push([pad(f, famWidth), ...cells].join('  '));
  }
  return `${lines.join('\n')}\n`;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The chart: per arm, a bar of wrong actions (the irreversible part darker) and a bar of needless
 * holds, on one scale (the number of scenarios whose truth is hold, or act, whichever is larger),
 * with the confirmations asked written beside them.
 */
export function renderSvg(report: BenchReport): string {
  const width = 800;
  const left = 230;
  const barMax = 340;
  const rowHeight = 46;
  const top = 64;
  const height = top + report.arms.length * rowHeight + 44;
  const scale = Math.max(report.truth.act, report.truth.hold, 1);
  const x = (n: number) => Math.round((n / scale) * barMax * 10) / 10;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="13">`,
    `<title>Wrong actions and needless holds per arm, ${report.scenarios} scenarios</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="15" font-weight="600" fill="#111">Wrong actions vs needless holds on drifting memory</text>`,
    `<text x="16" y="44" fill="#555">${report.scenarios} scenarios, ${report.families.length} families (${report.truth.hold} should hold, ${report.truth.act} may act)</text>`,
  );
  report.arms.forEach((a, i) => {
    const y = top + i * rowHeight;
    const t = a.total;
    out.push(`<text x="16" y="${y + 20}" fill="#111">${esc(a.label)}</text>`);
    out.push(`<rect x="${left}" y="${y + 4}" width="${x(t.wrong_actions)}" height="14" fill="#e4572e"/>`);
    out.push(`<rect x="${left}" y="${y + 4}" width="${x(t.wrong_irreversible)}" height="14" fill="#9b2c12"/>`);
    out.push(`<text x="${left + x(t.wrong_actions) + 6}" y="${y + 16}" fill="#333">${t.wrong_actions} wrong (${t.wrong_irreversible} irreversible)</text>`);
    out.push(`<rect x="${left}" y="${y + 22}" width="${x(t.needless_holds)}" height="14" fill="#7a8ca3"/>`);
    out.push(
      `<text x="${left + x(t.needless_holds) + 6}" y="${y + 34}" fill="#333">${t.needless_holds} needless holds${t.confirmations > 0 ? `, ${t.confirmations} confirmations asked` : ''}</text>`,
    );
  });
  const ly = height - 22;
  out.push(
    `<rect x="16" y="${ly - 10}" width="12" height="12" fill="#e4572e"/><text x="34" y="${ly}" fill="#333">wrong action</text>`,
    `<rect x="130" y="${ly - 10}" width="12" height="12" fill="#9b2c12"/><text x="148" y="${ly}" fill="#333">of which irreversible</text>`,
    `<rect x="300" y="${ly - 10}" width="12" height="12" fill="#7a8ca3"/><text x="318" y="${ly}" fill="#333">needless hold</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
