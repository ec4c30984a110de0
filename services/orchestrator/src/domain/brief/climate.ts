import type { Season } from '@hs/contracts';

/**
 * What the weather will be where the clothes are worn, which matters more than the calendar:
 * "a week in Iceland in March" is packing for the cold, "a beach holiday in January" for the sun,
 * "a ski trip in April" for the snow, and "Christmas in Australia" for the summer.
 */

/** Places cold in every month families travel there. */
const COLD_PLACES =
  /\b(?:iceland|lapland|greenland|svalbard|the arctic|arctic circle|antarctica|alaska|siberia|reykjavik|troms(?:o|ø)|rovaniemi|the north pole|north pole|yukon)\b/;
/**
 * Their summer months, when those places are cool, not cold ("Iceland in July" is about 11°C):
 * the coat and layers of an autumn day, not a winter parka.
 */
const COLD_PLACES_SUMMER =
  /\b(?:in|during|for|this|next|early|late|mid|mid-|end of|start of) ?(?:june|july|august)\b/;
/** Places warm in every month: winter-sun destinations. */
const WARM_PLACES =
  /\b(?:canaries|canary islands|tenerife|lanzarote|gran canaria|fuerteventura|dubai|abu dhabi|maldives|thailand|bali|caribbean|barbados|jamaica|bahamas|antigua|st lucia|cancun|hawaii|florida|miami|egypt|sharm|hurghada|goa|sri lanka|mauritius|seychelles|the tropics|singapore|dominican republic|cuba|phuket|costa rica|cape verde)\b/;
/** The southern hemisphere, where the calendar's seasons are the other way round. */
const SOUTHERN_PLACES =
  /\b(?:australia|new zealand|south africa|argentina|chile|uruguay|sydney|melbourne|brisbane|perth|auckland|cape town|johannesburg|buenos aires)\b/;

/**
 * The season the place or the activity dresses for, whatever the month: ski and beach occasions.
 * A season the family names (`seasonNamed`: "a summer dress for Iceland") wins over the place.
 */
export function climateOf(
  text: string,
  occasion: string | undefined,
  seasonNamed = false,
): Season | undefined {
  if (occasion === 'ski') return 'WINTER';
  if (occasion === 'beach') return 'SUMMER';
  if (seasonNamed) return undefined;
  if (COLD_PLACES.test(text))
    return COLD_PLACES_SUMMER.test(text) && !/\bantarctica\b/.test(text) ? 'FALL' : 'WINTER';
  if (WARM_PLACES.test(text)) return 'SUMMER';
  return undefined;
}

const OPPOSITE: Record<Season, Season> = {
  WINTER: 'SUMMER',
  SUMMER: 'WINTER',
  SPRING: 'FALL',
  FALL: 'SPRING',
};

/** A month or a holiday's season where the clothes are worn: turned round south of the equator. */
export const localSeason = (text: string, season: Season): Season =>
  SOUTHERN_PLACES.test(text) ? OPPOSITE[season] : season;
