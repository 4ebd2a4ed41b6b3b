/*
 * mingo loaded from its subpath modules with only the query and expression operators, as its README shows: the
 * root entry copies its registry of every operator on each query and update, which made the projection hot path
 * (one filter and one update per event) about four times slower. This repository resolves modules the node10
 * way, which cannot see subpath exports, hence `require` typed from mingo's declaration files.
 *
 * The direct evaluators beside this file reuse mingo's own comparison, equality, path and clone helpers, so
 * that what they answer is what mingo would answer; they only skip mingo's per-call compilation.
 */
const { Context } = require('mingo/core') as typeof import('mingo/types/core');
export const { Query } = require('mingo/query') as typeof import('mingo/types/query');
export const { update: mingoUpdate } = require('mingo/updater') as typeof import('mingo/types/updater');
export const { cloneDeep, compare, flatten, isEqual, isOperator, resolve, typeOf, unique } =
  require('mingo/util') as typeof import('mingo/types/util');

export const MINGO_OPTIONS = {
  context: Context.init({ query: require('mingo/operators/query'), expression: require('mingo/operators/expression') }),
};

export type MingoModifier = Parameters<typeof mingoUpdate>[1];
