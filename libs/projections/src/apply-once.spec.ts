import { MemoryReadStore } from '@pss/read-store';
import { applyOnce, deleteOnce } from './apply-once';

describe('deleteOnce', () => {
  it('removes a document an earlier event wrote, and leaves one a later event wrote again', async () => {
    const store = new MemoryReadStore();
    const rules = store.collection<{ _id: string; value: string }>('rules');
    await applyOnce(rules, 'r1', { position: 5 }, { $set: { value: 'created again' } }, { upsert: true });

    // The deletion at 3 is replayed after the creation at 5: the rule stays.
    await deleteOnce(rules, 'r1', { position: 3 });
    expect(await rules.findOne({ _id: 'r1' })).toMatchObject({ value: 'created again' });

    await deleteOnce(rules, 'r1', { position: 7 });
    expect(await rules.findOne({ _id: 'r1' })).toBeNull();
  });
});
