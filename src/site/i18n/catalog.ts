/**
 * The shape every language's catalog has, derived from English (messages/en.ts): the same keys,
 * each text with at least the placeholders the English text has (checked when the catalog is
 * type-checked), each plural message with an `other` form. Extra placeholders, missing plural
 * categories and stray keys are reported by test/site/i18n/catalogs.test.ts as well.
 */
import type { en } from './messages/en.ts';

type English = typeof en;

export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
export type PluralForms = { other: string } & Partial<Record<Exclude<PluralCategory, 'other'>, string>>;

/** 'a {x} b {y}' -> 'x' | 'y' */
export type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** A string holding every one of the placeholders, in any order. */
type Holding<S extends string> = [Placeholders<S>] extends [never] ? string : UnionToIntersection<Placeholders<S> extends infer P ? (P extends string ? `${string}{${P}}${string}` : never) : never>;

export type MessageKey = keyof English;
export type TextKey = { [K in MessageKey]: English[K] extends string ? K : never }[MessageKey];
export type PluralKey = Exclude<MessageKey, TextKey>;

/** Values for a text's placeholders; numbers are formatted for the language. */
export type ParamsOf<K extends MessageKey> = English[K] extends string
  ? { [P in Placeholders<English[K]>]: string | number }
  : Record<string, string | number>;

export type Catalog = { [K in MessageKey]: English[K] extends string ? Holding<English[K]> : PluralForms };
