import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { BlockBy, RuleType } from '@pss/contracts';
import type { CommandContext } from '@pss/platform';
import { CreateRule } from './create-rule';
import { LiftRule } from './lift-rule';
import { ruleKey, type RuleKey } from './rule-key';
import type { RuleResource } from './rule-resource';

/** One script as its rules see it: inline ones by content hash, external ones by host and URL (no query). */
export type RuledScript = { orgId: string; storeId: string } & ({ inline: true; hash: string } | { inline: false; host: string; url: string });

/**
 * What decisions on a script do to rules, for other features to call. The SDK lets a URL rule win over a domain
 * rule, and a block win over an allow of the same host (browser-sdk/src/block.ts), so a script's last decision
 * always acts on the next page view.
 */
@Injectable()
export class ScriptRules {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The spec's "a block rule is created or updated": inline scripts by content hash, external ones by domain
   * (or by their URL, when the shop asks for less); created, or re-activated if it exists. The allow rule an
   * earlier authorization made for the script's URL is lifted first, or it would keep the script running.
   * Answers once the `rules` read model has the rule.
   */
  async block(script: RuledScript, context: CommandContext, by: BlockBy = 'domain'): Promise<RuleResource> {
    const { orgId, storeId } = script;
    if (!script.inline) await this.lift(script, 'allow', 'url', script.url, context);
    const target = script.inline
      ? { target: 'hash' as const, value: script.hash }
      : by === 'url'
        ? { target: 'url' as const, value: script.url }
        : { target: 'domain' as const, value: script.host };
    return this.commands.execute(new CreateRule({ orgId, storeId, type: 'block', ...target }, context, 'reactivate'));
  }

  /**
   * Authorizing a blocked script lets it run. Its hash or URL rule blocked that script alone and is lifted; its
   * domain rule may block other scripts of the host and stays, with an allow rule for this script's URL.
   */
  async unblock(script: RuledScript, context: CommandContext): Promise<void> {
    if (script.inline) return this.lift(script, 'block', 'hash', script.hash, context);
    const { orgId, storeId, url } = script;
    await this.lift(script, 'block', 'url', url, context);
    // A URL longer than a rule may be keeps the host's block (rare: the SDK sends at most 2048 characters).
    if (!keyOf({ storeId, type: 'allow', target: 'url', value: url })) return;
    await this.commands.execute(new CreateRule({ orgId, storeId, type: 'allow', target: 'url', value: url }, context, 'reactivate'));
  }

  private async lift({ orgId, storeId }: RuledScript, type: RuleType, target: 'hash' | 'url', value: string, context: CommandContext): Promise<void> {
    const key = keyOf({ storeId, type, target, value });
    if (key) await this.commands.execute(new LiftRule(orgId, key, context));
  }
}

/** The rule's key; undefined when no rule may have the value (a script URL, normalized, may be longer than a rule's). */
function keyOf(input: { storeId: string; type: RuleType; target: 'hash' | 'url'; value: string }): RuleKey | undefined {
  try {
    return ruleKey(input);
  } catch {
    return undefined;
  }
}
