// Tree rows carry accessibilityInformation that reads as words: what a screen reader says for
// the Projects and Orders rows has no "·", no "km²", no ISO dates.
import * as assert from 'node:assert/strict';
import { useSandbox } from '../harness/sandbox';

suite('accessibility: tree rows read as words', function () {
  this.timeout(60_000);
  const env = useSandbox();

  test('project, AOI and order rows have spoken labels', async () => {
    const { providers } = env.current.api.services.explorer!;
    const projects = await providers.projects.getChildren();
    const project = projects.find((n) => n.kind === 'project');
    assert.ok(project);
    const aois = await providers.projects.getChildren(project);
    const orders = await providers.orders.getChildren();
    const rows = [project, ...aois.filter((n) => n.kind === 'aoi').slice(0, 3), ...orders.filter((n) => n.kind === 'order').slice(0, 3)];
    assert.ok(rows.length >= 3, 'too few rows to check');
    for (const row of rows) {
      const item = providers[row.view].getTreeItem(row);
      const spoken = item.accessibilityInformation?.label ?? '';
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      assert.ok(spoken.length > 0, `${row.kind} row "${label}" has no accessible label`);
      assert.ok(!/[·²]|\d{4}-\d{2}-\d{2}/.test(spoken), `${row.kind} row reads "${spoken}"`);
      assert.ok(spoken.startsWith(label.replace(/\d{4}-\d{2}-\d{2}.*/, '').trim()), `"${spoken}" does not start with the row's name "${label}"`);
    }
  });
});
