/**
 * The word lists the fact reading of fact-tokens.ts works with (English): words that carry no fact,
 * negation cues and their scope, opposites, number and ordinal words, units and periods.
 */

/** Words that carry no fact of their own (compared neither as content nor as names). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then than so of to in on at by for from with into onto over under about as is are was were be been being ' +
    'am do does did done has have had having will would shall should can could may might must it its this that these those there here ' +
    'he she they we you i me him her them us our your their his my who whom which what when where while how why all any each every ' +
    'some most many much more less few such only just also very too again once out off per via until till since after before ' +
    'get gets got getting make makes made same other another both either except already still yet now today always'
  ).split(' '),
);

/** Negation cues (a contraction's "n't" is read as "not"). */
export const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'nowhere',
  'neither',
  'nor',
  'without',
  'cannot',
  // Lexical negations of presence or action: "has no id" = "is missing its id", "must not lift" = "should avoid lifting".
  'missing',
  'lacks',
  'lacking',
  'avoid',
  'avoids',
]);

/** Words after which a negation cue is a quantifier, not a negation ("no more than 50" = "at most 50", "nobody except Ben" = "only Ben"). */
export const NOT_NEGATING_NEXT: ReadonlySet<string> = new Set(['more', 'less', 'fewer', 'longer', 'except', 'but', 'only']);

/** Words that end what a negation governs ("does not crash when the message ..." negates "crash", not "message"). */
export const SCOPE_BREAKS: ReadonlySet<string> = new Set([
  'when',
  'because',
  'but',
  'and',
  'or',
  'while',
  'which',
  'that',
  'if',
  'so',
  'although',
  'unless',
  'until',
  'since',
  'whereas',
]);

/** How many content words a negation governs (a following "of" adds one: "no sign of a fracture"). */
export const NEGATION_SCOPE = 1;

/** Words that reverse a fact when swapped for each other; a pair, in either order, is a changed fact. */
export const OPPOSITES: readonly (readonly [string, string])[] = [
  ['up', 'down'],
  ['rise', 'fall'],
  ['rose', 'fell'],
  ['grew', 'fell'],
  ['grow', 'shrink'],
  ['increase', 'decrease'],
  ['higher', 'lower'],
  ['above', 'below'],
  ['before', 'after'],
  ['north', 'south'],
  ['east', 'west'],
  ['left', 'right'],
  ['morning', 'afternoon'],
  ['morning', 'evening'],
  ['open', 'close'],
  ['enable', 'disable'],
  ['pass', 'fail'],
  ['succeed', 'fail'],
  ['allow', 'forbid'],
  ['allow', 'deny'],
  ['accept', 'reject'],
  ['min', 'max'],
  ['minimum', 'maximum'],
  ['first', 'last'],
  ['back', 'forward'],
  ['start', 'stop'],
  ['win', 'lose'],
  ['gain', 'loss'],
  ['profit', 'loss'],
  ['buy', 'sell'],
  ['import', 'export'],
  ['inbound', 'outbound'],
  ['input', 'output'],
  ['read', 'write'],
  ['public', 'private'],
];

/** Stopwords and ordinals that still carry a polarity: kept apart from content so they weigh nothing in similarity. */
export const POLAR_FUNCTION_WORDS: ReadonlySet<string> = new Set(['before', 'after', 'first']);

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
  twice: 2,
  single: 1,
  double: 2,
  dozen: 12,
};

export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  twentieth: 20,
  thirtieth: 30,
};

/** Unit spellings to one unit, so "5 GB" = "five gigabytes" and "5 GB" ≠ "5 MB". */
export const UNITS: Readonly<Record<string, string>> = (() => {
  const groups: Record<string, string[]> = {
    ms: ['ms', 'millisecond', 'milliseconds', 'msec'],
    s: ['s', 'sec', 'secs', 'second', 'seconds'],
    min: ['min', 'mins', 'minute', 'minutes'],
    h: ['h', 'hr', 'hrs', 'hour', 'hours'],
    day: ['day', 'days', 'd'],
    week: ['week', 'weeks', 'wk', 'wks'],
    month: ['month', 'months', 'mo'],
    quarter: ['quarter', 'quarters'],
    year: ['year', 'years', 'yr', 'yrs'],
    '%': ['%', 'percent', 'pct', 'percentage'],
    mg: ['mg', 'milligram', 'milligrams'],
    g: ['g', 'gram', 'grams'],
    kg: ['kg', 'kilogram', 'kilograms', 'kilo', 'kilos'],
    mcg: ['mcg', 'microgram', 'micrograms'],
    ml: ['ml', 'millilitre', 'millilitres', 'milliliter', 'milliliters'],
    l: ['l', 'litre', 'litres', 'liter', 'liters'],
    km: ['km', 'kilometre', 'kilometres', 'kilometer', 'kilometers'],
    m: ['m', 'metre', 'metres', 'meter', 'meters'],
    cm: ['cm', 'centimetre', 'centimetres', 'centimeter', 'centimeters'],
    mi: ['mi', 'mile', 'miles'],
    kb: ['kb', 'kilobyte', 'kilobytes'],
    mb: ['mb', 'megabyte', 'megabytes', 'meg', 'megs'],
    gb: ['gb', 'gigabyte', 'gigabytes', 'gig', 'gigs'],
    tb: ['tb', 'terabyte', 'terabytes'],
    kib: ['kib'],
    mib: ['mib'],
    gib: ['gib'],
    eur: ['eur', 'euro', 'euros', '€'],
    usd: ['usd', 'dollar', 'dollars', '$'],
    gbp: ['gbp', 'pound', 'pounds', '£'],
    deg: ['degree', 'degrees', '°', '°c', '°f'],
  };
  const out: Record<string, string> = {};
  for (const [unit, spellings] of Object.entries(groups)) for (const s of spellings) out[s] = unit;
  return out;
})();

/** Adverbs of a period ("daily" = "a day"): a period anchor without a number. */
export const PERIOD_WORDS: Readonly<Record<string, string>> = {
  hourly: 'h',
  daily: 'day',
  nightly: 'day',
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
  annually: 'year',
  annual: 'year',
};
export const PERIOD_UNITS: ReadonlySet<string> = new Set(['s', 'min', 'h', 'day', 'week', 'month', 'quarter', 'year']);
