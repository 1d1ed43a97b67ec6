// `benchline doctor`: every tool, its version and where it came from, as a table.
import Table from 'cli-table3';
import { doctorRows, TOOLS_DIR } from '../tools.js';

export default function doctor() {
  const rows = doctorRows();
  const plain = !process.stdout.isTTY || process.env.NO_COLOR;
  const table = new Table({ head: ['tool', 'version', 'source', 'path'], ...(plain ? { style: { head: [], border: [] } } : {}) });
  for (const r of rows) table.push([r.tool, r.version, r.source, r.path]);
  console.log(table.toString());
  console.log(`tools built by benchline live in ${TOOLS_DIR}`);
  return 0;
}
