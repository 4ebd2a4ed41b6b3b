import type { PageRule, ScriptStatus } from '@pss/contracts';
import { blockReach, MOST_REACHED, type CoveredScript } from './block-reach';

const HOST = 'cdn.shared.example';
const script = (id: string, path: string, status: ScriptStatus, host = HOST): CoveredScript => ({ _id: id, src: `https://${host}${path}`, host, status });
const rule = (target: string, value: string): PageRule => ({ id: `${target}:${value}`, target, value });
const domainBlock = { block: [rule('domain', HOST)], allow: [] as PageRule[] };
const named = (list: Array<{ id: string }>) => list.map((reached) => reached.id);

describe('what a domain block reaches', () => {
  it('stops the host’s other scripts and spares the authorized ones, whatever their query', () => {
    const covered = [
      script('jquery', '/jquery.min.js?v=3', 'authorized'),
      script('pixel-2', '/other-pixel.js', 'needs_review'),
      script('old', '/old.js', 'blocked'),
      script('sub', '/x.js', 'suspicious', `static.${HOST}`),
    ];
    expect(blockReach(covered, domainBlock)).toEqual({
      also_blocks: [
        { id: 'pixel-2', src: `https://${HOST}/other-pixel.js`, status: 'needs_review' },
        { id: 'old', src: `https://${HOST}/old.js`, status: 'blocked' },
        { id: 'sub', src: `https://static.${HOST}/x.js`, status: 'suspicious' },
      ],
      spared: [{ id: 'jquery', src: `https://${HOST}/jquery.min.js?v=3`, status: 'authorized' }],
    });
  });

  it('spares what an allow rule lets through: its URL, or a more specific domain', () => {
    const covered = [script('allowed-url', '/a.js', 'needs_review'), script('allowed-sub', '/b.js', 'needs_review', `pay.${HOST}`), script('other', '/c.js', 'needs_review')];
    const rules = {
      block: domainBlock.block,
      allow: [rule('url', `https://${HOST}/a.js`), rule('domain', `pay.${HOST}`)],
    };
    expect(blockReach(covered, rules)).toMatchObject({ spared: [{ id: 'allowed-url' }, { id: 'allowed-sub' }], also_blocks: [{ id: 'other' }] });
    // the parent domain allowed does not beat the block of the host
    const parentAllowed = { block: domainBlock.block, allow: [rule('domain', 'shared.example')] };
    expect(named(blockReach([script('p', '/p.js', 'needs_review')], parentAllowed).also_blocks)).toEqual(['p']);
  });

  it(`names at most ${MOST_REACHED} scripts of each list, in the order given (the most recently seen first)`, () => {
    const many = Array.from({ length: MOST_REACHED + 5 }, (_, i) => script(`s${i}`, `/ad-${i}.js`, 'needs_review'));
    const reach = blockReach(many, domainBlock);
    expect(reach.also_blocks).toHaveLength(MOST_REACHED);
    expect(reach.also_blocks[0].id).toBe('s0');
    expect(reach.spared).toEqual([]);
  });
});
