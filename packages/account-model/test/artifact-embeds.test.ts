// Embed resolution in a workflow revision's data (E§2.7 "Resolve and embeds", E§1.3 resolution_info):
// the three embed forms, recursion and its limits, cycles, missing targets under each error policy,
// against an in-memory lookup standing in for the project's revisions and environments.
import { describe, expect, it } from 'vitest';
import {
  EmbedError, resolveEmbeds, type EmbedErrorPolicy, type EmbedLookup, type EmbedTarget, type ResolvedRef,
} from '../src/aggregates/artifact/embeds.ts';

interface Rev { id: string; slug: string; version: string; data: Record<string, unknown> }
interface Env { id: string; slug: string; references: Record<string, { workflow_revision: { id: string } }> }

/** A project's revisions and environments, looked up as the caller would (environment + key → the revision it names). */
function store(revs: Rev[], envs: Env[] = []): { lookup: EmbedLookup; calls: EmbedTarget[] } {
  const calls: EmbedTarget[] = [];
  const refOf = (r: Rev): ResolvedRef => ({ kind: 'workflow_revision', id: r.id, slug: r.slug, version: r.version });
  const lookup: EmbedLookup = (target) => {
    calls.push(target);
    const wanted = target.references.workflow_revision;
    if (wanted) {
      const rev = revs.find((r) => (wanted.id === undefined || r.id === wanted.id) && (wanted.slug === undefined || r.slug === wanted.slug) && (wanted.version === undefined || r.version === wanted.version));
      return Promise.resolve(rev && { data: rev.data, ref: refOf(rev) });
    }
    const env = target.references.environment;
    const key = target.selector?.key;
    if (env && key !== undefined) {
      const found = envs.find((e) => (env.id === undefined || e.id === env.id) && (env.slug === undefined || e.slug === env.slug));
      const pointer = found?.references[key];
      const rev = pointer && revs.find((r) => r.id === pointer.workflow_revision.id);
      return Promise.resolve(rev && { data: rev.data, ref: refOf(rev) });
    }
    return Promise.resolve(undefined);
  };
  return { lookup, calls };
}

const rev = (id: string, data: Record<string, unknown>, slug = id, version = 'v1'): Rev => ({ id, slug, version, data });
const embed = (references: Record<string, unknown>, selector?: Record<string, unknown>) => ({ '@ag.embed': { '@ag.references': references, ...(selector && { '@ag.selector': selector }) } });
const bySlug = (slug: string, path?: string) => embed({ workflow_revision: { slug } }, path === undefined ? undefined : { path });

const BASE = rev('base', { parameters: { system_prompt: 'Be brief.', temperature: 0.2, tags: ['a', 'b'] } });
const POLICIES: EmbedErrorPolicy[] = ['exception', 'placeholder', 'keep'];

async function rejection(p: Promise<unknown>): Promise<EmbedError> {
  const e: unknown = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof EmbedError)) throw new Error(`expected an EmbedError, got ${String(e)}`);
  return e;
}

describe('object embeds', () => {
  it('given an object embed without a selector, when resolved, then it is replaced by the whole data of the target', async () => {
    const { lookup } = store([BASE]);
    const { data, info } = await resolveEmbeds({ parameters: { inner: bySlug('base') } }, lookup);
    expect(data).toEqual({ parameters: { inner: BASE.data } });
    expect(info).toEqual({ references_used: [{ kind: 'workflow_revision', id: 'base', slug: 'base', version: 'v1' }], depth_reached: 1, embeds_resolved: 1, errors: [] });
  });

  it('given an object embed with a path, when resolved, then it is replaced structurally by the value at that path, array items included', async () => {
    const { lookup } = store([BASE]);
    const { data } = await resolveEmbeds({ a: bySlug('base', 'parameters.tags'), b: [bySlug('base', 'parameters.tags.1'), bySlug('base', 'parameters.temperature')] }, lookup);
    expect(data).toEqual({ a: ['a', 'b'], b: ['b', 0.2] });
  });

  it('given references with null fields as the SDK sends them, when resolved, then the nulls are ignored', async () => {
    const { lookup, calls } = store([BASE]);
    const { data } = await resolveEmbeds({ p: embed({ workflow_revision: { slug: 'base', version: 'v1', id: null } }, { path: 'parameters.system_prompt' }) }, lookup);
    expect(data).toEqual({ p: 'Be brief.' });
    expect(calls).toEqual([{ references: { workflow_revision: { slug: 'base', version: 'v1' } }, selector: { path: 'parameters.system_prompt' } }]);
  });

  it('given an object with @ag.embed beside other keys, when resolved, then it is not an embed and passes through', async () => {
    const { lookup, calls } = store([BASE]);
    const input = { tool: { ...bySlug('base'), name: 'x' } };
    const { data, info } = await resolveEmbeds(input, lookup);
    expect(data).toEqual(input);
    expect(calls).toEqual([]);
    expect(info.embeds_resolved).toBe(0);
  });

  it('given a path missing from the target, when resolved under placeholder, then the embed becomes an error string', async () => {
    const { lookup } = store([BASE]);
    const { data, info } = await resolveEmbeds({ p: bySlug('base', 'parameters.nope') }, lookup, { errorPolicy: 'placeholder' });
    expect(data).toEqual({ p: "<error:Selector path 'parameters.nope' not found in workflow_revision base.>" });
    expect(info.errors).toEqual(["Selector path 'parameters.nope' not found in workflow_revision base."]);
    expect(info.embeds_resolved).toBe(0);
  });
});

describe('string embeds and snippets', () => {
  it('given a string holding two string embeds, when resolved, then each token is replaced: strings as-is, others as JSON', async () => {
    const { lookup } = store([BASE]);
    const text = 'System: @ag.embed[@ag.references[workflow_revision.slug=base], @ag.selector[path:parameters.system_prompt]] / tags @ag.embed[@ag.selector[path:parameters.tags], @ag.references[workflow_revision.slug=base, workflow_revision.version=v1]]!';
    const { data, info } = await resolveEmbeds({ prompt: text, list: [text] }, lookup);
    expect(data).toEqual({ prompt: 'System: Be brief. / tags ["a","b"]!', list: ['System: Be brief. / tags ["a","b"]!'] });
    expect(info.embeds_resolved).toBe(4);
    expect(info.references_used).toHaveLength(1);
  });

  it('given a string embed without a selector, when resolved, then the whole data is inserted as JSON', async () => {
    const { lookup } = store([rev('tiny', { parameters: { x: 1 } })]);
    const { data } = await resolveEmbeds({ s: '<@ag.embed[@ag.references[workflow_revision.id=tiny]]>' }, lookup);
    expect(data).toEqual({ s: '<{"parameters":{"x":1}}>' });
  });

  it('given a snippet naming an environment and key, when resolved, then the key is handed to the lookup and the default path is under parameters', async () => {
    const prompt = rev('prompt-1', { parameters: { prompt: { messages: [{ role: 'system', content: 'You are helpful.' }], llm_config: { model: 'gpt' } } } });
    const env: Env = { id: 'env-1', slug: 'prod', references: { greeting: { workflow_revision: { id: 'prompt-1' } } } };
    const { lookup, calls } = store([prompt], [env]);
    const { data, info } = await resolveEmbeds({ text: 'Say: @{{environment.slug=prod, key=greeting}} / model @{{environment.slug=prod & key=greeting & path=prompt.llm_config.model}}' }, lookup);
    expect(data).toEqual({ text: 'Say: You are helpful. / model gpt' });
    expect(calls[0]).toEqual({ references: { environment: { slug: 'prod' } }, selector: { key: 'greeting', path: 'parameters.prompt.messages.0.content' } });
    expect(info.references_used).toEqual([{ kind: 'workflow_revision', id: 'prompt-1', slug: 'prompt-1', version: 'v1' }]);
  });

  it('given malformed tokens, when resolved under placeholder, then each is an invalid-embed error; an unclosed one is plain text', async () => {
    const { lookup } = store([BASE]);
    const { data, info } = await resolveEmbeds({ a: 'x @ag.embed[@ag.references[workflow_revision.name=base]] y', b: '@{{key=k}}', c: 'open @ag.embed[@ag.references[x' }, lookup, { errorPolicy: 'placeholder' });
    expect(data.a).toMatch(/^x <error:Invalid embed: reference 'workflow_revision\.name=base' .*> y$/);
    expect(data.b).toMatch(/^<error:Invalid embed: snippet .* names no reference\.>$/);
    expect(data.c).toBe('open @ag.embed[@ag.references[x');
    expect(info.errors).toHaveLength(2);
  });
});

describe('recursion and its limits', () => {
  const MID = rev('mid', { parameters: { intro: 'Intro: @ag.embed[@ag.references[workflow_revision.slug=base], @ag.selector[path:parameters.system_prompt]]', nested: bySlug('base', 'parameters.temperature') } });

  it('given an embed whose target holds embeds, when resolved, then both levels resolve and depth_reached is 2', async () => {
    const { lookup } = store([BASE, MID]);
    const { data, info } = await resolveEmbeds({ cfg: bySlug('mid', 'parameters') }, lookup);
    expect(data).toEqual({ cfg: { intro: 'Intro: Be brief.', nested: 0.2 } });
    expect(info).toEqual({
      references_used: [{ kind: 'workflow_revision', id: 'mid', slug: 'mid', version: 'v1' }, { kind: 'workflow_revision', id: 'base', slug: 'base', version: 'v1' }],
      depth_reached: 2, embeds_resolved: 3, errors: [],
    });
  });

  it('given a path that runs through an embed in the target, when resolved, then the inner embed is resolved on the way', async () => {
    const through = rev('through', { parameters: { cfg: bySlug('base', 'parameters') } });
    const { lookup } = store([BASE, through]);
    const { data, info } = await resolveEmbeds({ t: bySlug('through', 'parameters.cfg.temperature') }, lookup);
    expect(data).toEqual({ t: 0.2 });
    expect(info.depth_reached).toBe(2);
  });

  it('given nesting one level past max_depth, when resolved, then the deepest embed fails with a depth error', async () => {
    const { lookup } = store([BASE, MID]);
    const err = await rejection(resolveEmbeds({ cfg: bySlug('mid', 'parameters') }, lookup, { maxDepth: 1 }));
    expect(err.kind).toBe('depth');
    const { data, info } = await resolveEmbeds({ cfg: bySlug('mid', 'parameters') }, lookup, { maxDepth: 1, errorPolicy: 'placeholder' });
    expect(data).toEqual({ cfg: { intro: 'Intro: <error:Embed depth exceeds max_depth=1 at workflow_revision.slug=base.>', nested: '<error:Embed depth exceeds max_depth=1 at workflow_revision.slug=base.>' } });
    expect(info).toMatchObject({ depth_reached: 1, embeds_resolved: 1 });
    expect(info.errors).toHaveLength(2);
  });

  it('given more embeds than max_embeds, when resolved, then the ones past the budget fail with a count error', async () => {
    const { lookup } = store([BASE]);
    const input = { a: bySlug('base', 'parameters.temperature'), b: bySlug('base', 'parameters.temperature'), c: bySlug('base', 'parameters.temperature') };
    expect((await rejection(resolveEmbeds(input, lookup, { maxEmbeds: 2 }))).kind).toBe('count');
    const { data, info } = await resolveEmbeds(input, lookup, { maxEmbeds: 2, errorPolicy: 'keep' });
    expect(data).toEqual({ a: 0.2, b: 0.2, c: input.c });
    expect(info).toEqual({ references_used: [expect.objectContaining({ id: 'base' })], depth_reached: 1, embeds_resolved: 2, errors: ['Embed count exceeds max_embeds=2 at workflow_revision.slug=base.'] });
  });
});

describe('cycles', () => {
  // A embeds B, B embeds A; A's data is the one being resolved.
  const A = rev('rev-a', { parameters: { b: bySlug('b', 'parameters'), note: 'a' } }, 'a');
  const B_TEXT = 'in b: @ag.embed[@ag.references[workflow_revision.slug=a], @ag.selector[path:parameters.note]]';
  const B = rev('rev-b', { parameters: { a: bySlug('a', 'parameters.note'), text: B_TEXT } }, 'b');
  const MESSAGE = 'Circular embed: workflow_revision.slug=a is workflow_revision rev-a, which is already being resolved.';

  for (const policy of POLICIES) {
    it(`given A embeds B embeds A, when A's data is resolved under ${policy}, then the embed back to A is a cycle`, async () => {
      const { lookup } = store([A, B]);
      const run = resolveEmbeds(A.data, lookup, { errorPolicy: policy, self: { kind: 'workflow_revision', id: 'rev-a' } });
      if (policy === 'exception') {
        const err = await rejection(run);
        expect(err.kind).toBe('cycle');
        expect(err.message).toBe(MESSAGE);
        return;
      }
      const { data, info } = await run;
      const inB = policy === 'placeholder'
        ? { a: `<error:${MESSAGE}>`, text: `in b: <error:${MESSAGE}>` }
        : { a: bySlug('a', 'parameters.note'), text: B_TEXT };
      expect(data).toEqual({ parameters: { b: inB, note: 'a' } });
      expect(info).toEqual({ references_used: [{ kind: 'workflow_revision', id: 'rev-b', slug: 'b', version: 'v1' }], depth_reached: 1, embeds_resolved: 1, errors: [MESSAGE, MESSAGE] });
    });
  }

  it('given no self, when A is embedded from outside, then the cycle is caught when B embeds A again', async () => {
    const { lookup } = store([A, B]);
    const err = await rejection(resolveEmbeds({ top: bySlug('a', 'parameters') }, lookup));
    expect(err.kind).toBe('cycle');
  });

  it('given the same target embedded twice side by side, when resolved, then it is no cycle and is listed once', async () => {
    const { lookup } = store([BASE]);
    const { info } = await resolveEmbeds({ x: bySlug('base'), y: [bySlug('base')] }, lookup);
    expect(info).toMatchObject({ embeds_resolved: 2, errors: [] });
    expect(info.references_used).toHaveLength(1);
  });
});

describe('missing targets', () => {
  const input = { obj: bySlug('ghost', 'parameters.x'), str: 'pre @ag.embed[@ag.references[workflow_revision.slug=ghost]] post' };
  const MESSAGE = 'Embed target not found: workflow_revision.slug=ghost.';

  for (const policy of POLICIES) {
    it(`given embeds of a revision the project does not have, when resolved under ${policy}, then they fail as not found`, async () => {
      const { lookup } = store([BASE]);
      const run = resolveEmbeds(input, lookup, { errorPolicy: policy });
      if (policy === 'exception') {
        const err = await rejection(run);
        expect(err).toMatchObject({ kind: 'not_found', message: MESSAGE, name: 'EmbedError' });
        return;
      }
      const { data, info } = await run;
      expect(data).toEqual(policy === 'placeholder' ? { obj: `<error:${MESSAGE}>`, str: `pre <error:${MESSAGE}> post` } : input);
      expect(data.obj).not.toBe(input.obj);
      expect(info).toEqual({ references_used: [], depth_reached: 0, embeds_resolved: 0, errors: [MESSAGE, MESSAGE] });
    });
  }

  it('given a lookup that throws something else, when resolved under placeholder, then it propagates', async () => {
    const lookup: EmbedLookup = () => Promise.reject(new Error('db down'));
    await expect(resolveEmbeds({ x: bySlug('base') }, lookup, { errorPolicy: 'placeholder' })).rejects.toThrow('db down');
  });
});

describe('data without embeds', () => {
  it('given data with no embeds, when resolved, then it comes back deep-equal, as a copy, with the input untouched', async () => {
    const input = { uri: 'agenta:builtin:prompt:v0', parameters: { prompt: { messages: [{ role: 'user', content: 'Hi {{name}} @ mention [x] {y}' }] }, n: 1, ok: true, none: null, empty: {}, list: [[], [1, 'two']] } };
    const before = structuredClone(input);
    const { lookup, calls } = store([BASE]);
    const { data, info } = await resolveEmbeds(input, lookup);
    expect(data).toEqual(input);
    expect(data.parameters).not.toBe(input.parameters);
    expect(input).toEqual(before);
    expect(calls).toEqual([]);
    expect(info).toEqual({ references_used: [], depth_reached: 0, embeds_resolved: 0, errors: [] });
  });

  it('given data with embeds, when resolved, then neither the input nor the looked-up data is mutated', async () => {
    const input = { p: bySlug('mid', 'parameters') };
    const mid = rev('mid', { parameters: { inner: bySlug('base', 'parameters.tags') } });
    const before = structuredClone(input);
    const midBefore = structuredClone(mid.data);
    const baseBefore = structuredClone(BASE.data);
    const { lookup } = store([BASE, mid]);
    const { data } = await resolveEmbeds(input, lookup);
    expect(data).toEqual({ p: { inner: ['a', 'b'] } });
    expect(input).toEqual(before);
    expect(mid.data).toEqual(midBefore);
    expect(BASE.data).toEqual(baseBefore);
  });

  it('given the data itself is an embed, when resolved, then it is an invalid embed and kept under placeholder', async () => {
    const { lookup } = store([BASE]);
    expect((await rejection(resolveEmbeds(bySlug('base'), lookup))).kind).toBe('invalid');
    const { data, info } = await resolveEmbeds(bySlug('base'), lookup, { errorPolicy: 'placeholder' });
    expect(data).toEqual(bySlug('base'));
    expect(info.errors).toHaveLength(1);
  });
});
