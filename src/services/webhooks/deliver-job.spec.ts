import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeliverPayload } from './deliver-job.ts';

test('deliver job payloads: delivery id required, series start defaults to 1', () => {
  assert.deepEqual(parseDeliverPayload({ delivery_id: 'dlv_1' }), { delivery_id: 'dlv_1', series_start: 1 });
  assert.deepEqual(parseDeliverPayload({ delivery_id: 'dlv_1', series_start: 5 }), { delivery_id: 'dlv_1', series_start: 5 });
  for (const bad of [null, 'dlv_1', {}, { delivery_id: '' }, { delivery_id: 7 }, { delivery_id: 'dlv_1', series_start: 0 }, { delivery_id: 'dlv_1', series_start: 1.5 }]) {
    assert.throws(() => parseDeliverPayload(bad), /deliver job payload/, JSON.stringify(bad));
  }
});
