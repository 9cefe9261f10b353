import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js';
import { iso6393To2B } from 'iso-639-3/iso6393-to-2b.js';

/**
 * Language codes in the catalog come in four systems: ISO 639-1 (`en`, OpenAI
 * and Deepgram), ISO 639-3 (`eng`, ElevenLabs v3 and Scribe), BCP 47 tags with
 * regions (`en-US`, `es-419`, Deepgram and espeak-ng) and AssemblyAI's own
 * codes (`en_us`, `en_uk`, `jw`). svc compares them on one canonical form:
 *
 * 1. lower case, `_` read as `-`; AssemblyAI's region `uk` is ISO 3166 `gb`;
 * 2. the primary subtag is ISO 639-1 where the language has such a code
 *    (`eng` -> `en`, `fas` -> `fa`, ISO 639-2/B `ger` -> `de`), else it stays ISO 639-3;
 * 3. aliases: Mandarin `cmn` -> `zh` (what `zh` means to every provider here),
 *    Norwegian Bokmål `nb` -> `no`, Filipino `fil` -> `tl` (its standard
 *    register; OpenAI and Deepgram write `tl`), and the retired ISO 639-1
 *    codes `jw` -> `jv`, `iw` -> `he`, `in` -> `id`, `ji` -> `yi`;
 * 4. Deepgram's `multi` is a code-switching mode, not a language, and is dropped.
 *
 * Language choices are canonical primary subtags (`en`); voice languages keep
 * their region (`en-us`). Known loss: Deepgram's `zh-HK` (Cantonese) reads as `zh`.
 */
const ALIASES: Record<string, string> = { cmn: 'zh', nb: 'no', fil: 'tl', jw: 'jv', iw: 'he', in: 'id', ji: 'yi' };
const REGION_ALIASES: Record<string, string> = { uk: 'gb' };
const NOT_LANGUAGES = new Set(['multi']);

const FROM_2B: Record<string, string> = Object.fromEntries(
  Object.entries(iso6393To2B)
    .filter(([three, twoB]) => twoB !== three)
    .map(([three, twoB]) => [twoB, three]),
);

function canonicalPrimary(primary: string): string {
  const aliased = ALIASES[primary] ?? primary;
  if (aliased.length !== 3) return aliased;
  const three = FROM_2B[aliased] ?? aliased;
  return ALIASES[three] ?? iso6393To1[three] ?? three;
}

/** The canonical tag of a language code (`en_US` -> `en-us`, `eng` -> `en`); null for non-languages like `multi`. */
export function canonicalTag(code: string): string | null {
  const parts = code.trim().toLowerCase().replace(/_/g, '-').split('-').filter(Boolean);
  if (parts.length === 0 || NOT_LANGUAGES.has(parts[0]!)) return null;
  const [primary, ...rest] = parts;
  const region = rest.map((part, i) => (i === 0 ? (REGION_ALIASES[part] ?? part) : part));
  return [canonicalPrimary(primary!), ...region].join('-');
}

/** The canonical primary language of a code (`en-US` -> `en`, `fil` -> `tl`); null for non-languages. */
export function canonicalLanguage(code: string): string | null {
  const tag = canonicalTag(code);
  return tag === null ? null : tag.split('-')[0]!;
}

/** The distinct canonical languages of a list of codes, sorted. */
export function canonicalLanguages(codes: readonly string[]): string[] {
  const out = new Set<string>();
  for (const code of codes) {
    const language = canonicalLanguage(code);
    if (language) out.add(language);
  }
  return [...out].sort();
}
