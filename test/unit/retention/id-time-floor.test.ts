import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idTimeFloor } from '../../../src/shared/id-time-floor';
import { sortableId } from '../../../src/shared/ids';

describe('idTimeFloor', () => {
  it("is the prefix and time part of shared/ids' sortableId: ids of earlier instants sort below it", () => {
    // Later than any id this process made, so sortableId takes the given times as they are.
    const t = Date.now() + 86_400_000;
    const id = `quo_${sortableId(t)}`;
    assert.equal(idTimeFloor('quo', t), id.slice(0, 'quo_'.length + 10));
    assert.ok(id >= idTimeFloor('quo', t), 'an id made at the instant is not below it');
    assert.ok(id < idTimeFloor('quo', t + 1), 'an id made a millisecond earlier is below it');
    const later = `quo_${sortableId(t + 3_600_000)}`;
    assert.ok(later > idTimeFloor('quo', t + 1));
    assert.ok(idTimeFloor('quo', 0) < id);
  });
});
