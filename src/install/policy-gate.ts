/**
 * Where the installer holds a policy (issue 55, point 2): the calls `install`, `update`,
 * `outdated` and `status` make, each at one point, of the one judge (`policy/evaluate.ts`,
 * `policy/release-age.ts`). A refusal is a {@link PolicyRefusal} (`PolicyRefused`, exit 1) whose
 * message names the policy, then each violation (rule, loadout, agent, capability); it is thrown
 * before anything is written. Without a policy every function here allows everything and picks
 * what the commands picked before. Pure apart from the errors thrown.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { describeViolations, evaluatePolicy, type PolicySubject } from '../policy/evaluate.js';
import type { PolicyInForce, PolicyViolation } from '../policy/policy.js';
import { newestEligible, releaseAge, releaseAgeViolation } from '../policy/release-age.js';
import type { VersionsDocument } from '../tree-format/versions.js';
import { compareVersions } from './changelog.js';
import type { SigningState } from './catalogue/signed-catalogue.js';
import { PolicyRefusal } from './errors.js';

/** Throws the refusal of `violations` (of `what`: `kit 1.1.0 for claude-code`) when there are any. @throws PolicyRefusal */
export function refuseViolations(policy: PolicyInForce, what: string, violations: readonly PolicyViolation[]): void {
  if (violations.length > 0) throw new PolicyRefusal(`${describeViolations(policy.where, what, violations)}\nnothing was written`, violations);
}

/**
 * Refuses, before a catalogue is read, an install of `loadout` from `catalogue` (its lock
 * source: base URL or absolute folder) for `agents` that the policy's `catalogues`, `loadouts`
 * or `agents` forbid. @throws PolicyRefusal
 */
export function refuseSource(policy: PolicyInForce | undefined, loadout: string, catalogue: string, agents: readonly Agent[]): void {
  if (policy === undefined) return;
  const violations = agents.flatMap((agent, i) => evaluatePolicy(policy.policy, { loadout, agent, catalogue }).filter((v) => i === 0 || v.rule === 'agents'));
  refuseViolations(policy, `${loadout} from ${catalogue} for ${agents.join(', ')}`, violations);
}

/**
 * {@link refuseSource} without the `loadouts` rule: what can be judged of `install <id>` before
 * the catalogue says whether `id` is a loadout or a bundle (issue 56); each loadout is then
 * judged by {@link refuseSource}. @throws PolicyRefusal
 */
export function refuseCatalogue(policy: PolicyInForce | undefined, id: string, catalogue: string, agents: readonly Agent[]): void {
  if (policy === undefined) return;
  const violations = agents.flatMap((agent, i) => evaluatePolicy(policy.policy, { loadout: id, agent, catalogue }).filter((v) => !v.rule.startsWith('loadouts.') && (i === 0 || v.rule === 'agents')));
  refuseViolations(policy, `${id} from ${catalogue} for ${agents.join(', ')}`, violations);
}

/** The verified signing of a catalogue as the judge reads it: the key ids that signed, or null when unsigned. */
export const signedBy = (state: Pick<SigningState, 'snapshot' | 'trust'>): { keyids: string[] } | null => (state.snapshot === undefined ? null : { keyids: state.trust?.keyids ?? [] });

/**
 * The violations of what one version brings for `agent`: its catalogue's signing and its
 * capability list (the agent's part). Pure.
 */
export function contentViolations(policy: PolicyInForce | undefined, subject: Required<Pick<PolicySubject, 'loadout' | 'catalogue' | 'capabilities'>> & { agent: Agent; signing: { keyids: readonly string[] } | null }): PolicyViolation[] {
  if (policy === undefined) return [];
  return evaluatePolicy(policy.policy, subject).filter((v) => v.rule !== 'catalogues' && v.rule !== 'loadouts.allow' && v.rule !== 'loadouts.deny' && v.rule !== 'agents');
}

/** A version held back by `min_release_age`: the version and when it becomes eligible (ISO 8601 UTC). */
export interface HeldVersion {
  version: string;
  eligible_at: string;
}

/** The version a command takes by default, and the newer one the policy's age held back, if any. */
export interface DefaultVersion {
  /** The newest version allowed: the catalogue's latest without a policy age. Undefined when no version is old enough. */
  version: string | undefined;
  held: HeldVersion | undefined;
}

/**
 * The version `install` (no `--version`) or `update` (no `--to`) moves to: the catalogue's
 * latest, or under `min_release_age` the newest version old enough, with the latest as held
 * when it is not (its `eligible_at` null when its date is unknown: never). Pure.
 */
export function defaultVersion(policy: PolicyInForce | undefined, doc: VersionsDocument): DefaultVersion {
  if (policy?.policy.min_release_age === undefined) return { version: doc.latest, held: undefined };
  const latest = doc.versions.find((v) => v.version === doc.latest);
  const age = latest === undefined ? { eligible: false, eligibleAt: null } : releaseAge(policy.policy, latest, policy.now);
  const chosen = newestEligible(policy.policy, doc.versions.filter((v) => compareVersions(v.version, doc.latest) <= 0), policy.now);
  return { version: chosen?.version, held: age.eligible ? undefined : { version: doc.latest, eligible_at: age.eligibleAt ?? 'never' } };
}

/**
 * Refuses a version the policy's age holds back: `named` (given by `--version`, `--to`, or the
 * lock with `--frozen`) unless an `exceptions` entry lists it; not named, when none is old
 * enough. @throws PolicyRefusal
 */
export function refuseVersion(policy: PolicyInForce | undefined, doc: VersionsDocument, version: string | undefined, named: boolean, agent: Agent): string {
  if (policy === undefined || policy.policy.min_release_age === undefined) return version ?? doc.latest;
  if (version === undefined) {
    const latest = doc.versions.find((v) => v.version === doc.latest) ?? { version: doc.latest, date: null };
    const violation = releaseAgeViolation(policy.policy, doc.id, latest, policy.now, false);
    refuseViolations(policy, `${doc.id} for ${agent}`, violation === undefined ? [] : [{ ...violation, agent, message: `${violation.message}; no version of ${doc.id} is old enough` }]);
    return doc.latest;
  }
  const entry = doc.versions.find((v) => v.version === version);
  // A version the catalogue does not publish is refused as such by the fetch that follows.
  if (entry === undefined) return version;
  const violation = releaseAgeViolation(policy.policy, doc.id, entry, policy.now, named);
  refuseViolations(policy, `${doc.id} ${version} for ${agent}`, violation === undefined ? [] : [{ ...violation, agent }]);
  return version;
}

/** Every violation of the policy by `subject` (`outdated`, which reports rather than refuses); none without a policy. Pure. */
export function violationsOf(policy: PolicyInForce | undefined, subject: PolicySubject): PolicyViolation[] {
  return policy === undefined ? [] : evaluatePolicy(policy.policy, subject);
}

/** The violations of the policy by one installed loadout (`status`): its catalogue, id, agent, its catalogue's signing as the lock keeps it, and what its files hold now. Pure. */
export function installedViolations(policy: PolicyInForce | undefined, subject: { loadout: string; agent: Agent; catalogue: string; trusted: { keyids: string[] } | undefined; capabilities: CapabilityLists }): PolicyViolation[] {
  if (policy === undefined) return [];
  return evaluatePolicy(policy.policy, { loadout: subject.loadout, agent: subject.agent, catalogue: subject.catalogue, signing: subject.trusted === undefined ? null : { keyids: subject.trusted.keyids }, capabilities: subject.capabilities });
}
