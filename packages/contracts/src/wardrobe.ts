import { z } from 'zod';
import { Label, queryInteger, ShownText, Timestamp } from './common.ts';

export const WardrobeCategory = z.enum([
  'TOP',
  'BOTTOM',
  'DRESS',
  'OUTERWEAR',
  'SHOES',
  'ACCESSORY',
  'BAG',
  'OTHER',
]);
export type WardrobeCategory = z.infer<typeof WardrobeCategory>;

export const Season = z.enum(['SPRING', 'SUMMER', 'FALL', 'WINTER']);
export type Season = z.infer<typeof Season>;

/** Image types an upload URL can be made for (and the local upload route accepts). */
export const ImageContentType = z.enum(['image/png', 'image/jpeg', 'image/webp']);
export type ImageContentType = z.infer<typeof ImageContentType>;

const Labels = z.array(Label).max(20);
const Seasons = z.array(Season).max(4);
const MemberId = z.string().min(1).max(128);

/** `pending` from upload-url until confirm, then `confirmed` (once; a second confirm is 409). */
export const ItemImageStatus = z.enum(['pending', 'confirmed']);
export const ItemImage = z.object({
  imageId: z.string().describe('img_<id>'),
  status: ItemImageStatus,
  contentType: ImageContentType,
  fileName: z.string().nullable(),
  size: z.number().int().nullable().describe('bytes, known once confirmed'),
  sha256: z.string().nullable().describe('hex SHA-256 of the bytes, when the storage backend knows it'),
  ref: z.string().describe('storage reference: local://<key> or gs://<bucket>/<key>'),
  contentPath: z
    .string()
    .nullable()
    .describe(
      'where the app GETs the picture (on the API host, with the bearer token); null until confirmed',
    ),
  createdAt: Timestamp,
  confirmedAt: Timestamp.nullable(),
});
export type ItemImage = z.infer<typeof ItemImage>;

export const WardrobeItem = z.object({
  itemId: z.string().describe('item_<id>'),
  householdId: z.string(),
  ownerMemberId: z.string(),
  category: WardrobeCategory,
  brand: z.string(),
  colors: z.array(z.string()),
  season: z.array(Season),
  occasion: z.array(z.string()),
  tags: z.array(z.string()),
  images: z.array(ItemImage),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WardrobeItem = z.infer<typeof WardrobeItem>;

export const CreateItemRequest = z.object({
  category: WardrobeCategory,
  ownerMemberId: MemberId.optional().describe('defaults to the caller'),
  brand: ShownText(80).default(''),
  colors: Labels.default([]),
  season: Seasons.default([]),
  occasion: Labels.default([]),
  tags: Labels.default([]),
});
export type CreateItemRequest = z.input<typeof CreateItemRequest>;

export const UpdateItemRequest = z.object({
  category: WardrobeCategory.optional(),
  ownerMemberId: MemberId.optional(),
  brand: ShownText(80).optional(),
  colors: Labels.optional(),
  season: Seasons.optional(),
  occasion: Labels.optional(),
  tags: Labels.optional(),
});
export type UpdateItemRequest = z.infer<typeof UpdateItemRequest>;

export const ItemParams = z.object({ id: z.string().min(1).max(128), itemId: z.string().min(1).max(128) });
export const ImageParams = ItemParams.extend({ imageId: z.string().min(1).max(128) });

export const ListItemsQuery = z.object({
  category: WardrobeCategory.optional(),
  season: Season.optional(),
  ownerMemberId: MemberId.optional(),
  updatedSince: Timestamp.optional().describe(
    'only items changed at or after this instant, plus deletedItemIds',
  ),
  limit: queryInteger(1, 200).withDefault(50),
  cursor: z.string().min(1).max(2048).optional(),
});
export type ListItemsQuery = z.infer<typeof ListItemsQuery>;

/** A conditional read: the ETag the client holds; the same version again is 304 without a body. */
export const IfNoneMatchHeaders = z.looseObject({
  'if-none-match': z.string().optional().describe('ETag(s) of the copy the client holds: 304 when current'),
});

/** A conditional write: the ETag of the copy the client edited; another version is 412. */
export const IfMatchHeaders = z.looseObject({
  'if-match': z
    .string()
    .optional()
    .describe('ETag of the copy the client changes: 412 PRECONDITION_FAILED when it is stale'),
});

/** Ordered by updatedAt ascending, so a sync client can page through changes. */
export const ItemPage = z.object({
  items: z.array(WardrobeItem),
  nextCursor: z.string().nullable(),
  deletedItemIds: z.array(z.string()).describe('items deleted at or after updatedSince (empty without it)'),
  syncedAt: Timestamp.describe('pass as updatedSince on the next sync'),
});
export type ItemPage = z.infer<typeof ItemPage>;

export const UploadUrlRequest = z.object({
  contentType: ImageContentType,
  fileName: ShownText(200, 1).optional(),
});
export type UploadUrlRequest = z.infer<typeof UploadUrlRequest>;

export const UploadUrlResponse = z.object({
  imageId: z.string(),
  uploadUrl: z.string(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  expiresAt: Timestamp,
});
export type UploadUrlResponse = z.infer<typeof UploadUrlResponse>;

/** The signature of a local upload URL, as the upload-url reply hands it out (the whole URL is opaque). */
export const UploadSignatureQuery = z.looseObject({
  expires: z.string().optional().describe('expiry, Unix seconds'),
  max: z.string().optional().describe('the largest upload the URL allows, bytes'),
  sig: z.string().optional().describe('HMAC over the method, key, content type, limit and expiry'),
});

/** What the local upload route answers after storing the bytes. */
export const UploadReceipt = z.object({
  size: z.number().int(),
  contentType: z.string(),
  sha256: z.string(),
});

// ---- curation ----

export const LookPiece = z.object({
  source: z.enum(['WARDROBE', 'OFFER']),
  id: z.string().describe('itemId or offerId'),
  category: WardrobeCategory,
  colors: z.array(z.string()),
  label: z.string().describe('brand or offer title'),
});
export type LookPiece = z.infer<typeof LookPiece>;

export const Look = z.object({
  lookId: z.string(),
  anchorItemId: z.string(),
  pieces: z.array(LookPiece),
  itemIds: z.array(z.string()),
  offerIds: z.array(z.string()),
  score: z.number(),
  why: z.array(z.string()).min(1),
});
export type Look = z.infer<typeof Look>;

export const CurationResult = z.object({
  itemId: z.string(),
  backend: z.enum(['local']),
  looks: z.array(Look),
  offers: z
    .enum(['INCLUDED', 'NONE_NEEDED', 'NONE_FOUND', 'UNAVAILABLE'])
    .describe('UNAVAILABLE: commerce could not be asked, looks use the wardrobe only'),
  notes: z.array(z.string()),
});
export type CurationResult = z.infer<typeof CurationResult>;

/** `POST .../wardrobe/pairings`: the piece to pair (an offer or an item the shopper names). */
export const PairingsRequest = z.strictObject({
  category: WardrobeCategory,
  colors: z.array(z.string().trim().min(1).max(40)).max(10).default([]),
  season: Season.optional(),
});
export type PairingsRequest = z.infer<typeof PairingsRequest>;
export const Pairing = z.object({
  itemId: z.string(),
  category: WardrobeCategory,
  colors: z.array(z.string()),
  label: z.string().describe('brand, or the category when the item has no brand'),
  score: z.number(),
  why: z.array(z.string()).min(1),
});
export type Pairing = z.infer<typeof Pairing>;
export const PairingsResult = z.object({
  completes: z.array(WardrobeCategory).describe('categories that complete the piece'),
  pairs: z.array(Pairing),
});
export type PairingsResult = z.infer<typeof PairingsResult>;

// ---- outfits ----

export const Outfit = z.object({
  outfitId: z.string().describe('out_<id>'),
  householdId: z.string(),
  name: z.string(),
  itemIds: z.array(z.string()),
  offerIds: z.array(z.string()),
  source: z.enum(['MANUAL', 'CURATED']),
  why: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Outfit = z.infer<typeof Outfit>;

export const CreateOutfitRequest = z.object({
  name: ShownText(120, 1).optional(),
  itemIds: z
    .array(z.string().min(1).max(128))
    .min(1)
    .max(20)
    .optional()
    .describe('saves exactly these items'),
  anchorItemId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('without itemIds: the item curation builds around (default: the most recently changed item)'),
});
export type CreateOutfitRequest = z.infer<typeof CreateOutfitRequest>;

export const OutfitParams = z.object({
  id: z.string().min(1).max(128),
  outfitId: z.string().min(1).max(128),
});
export const OutfitList = z.object({ items: z.array(Outfit) });

// ---- feed and collections ----

export const FeedSource = z.enum(['ALL', 'WARDROBE', 'OUTFITS', 'OFFERS', 'COLLECTIONS']);
export type FeedSource = z.infer<typeof FeedSource>;

export const FeedQuery = z.object({
  source: FeedSource.default('ALL'),
  limit: queryInteger(1, 100).withDefault(50),
});

export const CollectionEntry = z.object({
  type: z.enum(['ITEM', 'OUTFIT']),
  id: z.string(),
  addedAt: Timestamp,
  addedBy: z.string().nullable(),
});
export type CollectionEntry = z.infer<typeof CollectionEntry>;

export const FeedCollection = z.object({
  collectionId: z.string().describe('col_<id>'),
  householdId: z.string(),
  name: z.string(),
  entries: z
    .array(CollectionEntry)
    .describe(
      'oldest first, at most 500 (one more is 409 CONFLICT); the feed and the collection list show only the newest 20',
    ),
  entryCount: z.number().int().describe('how many entries the collection holds'),
  createdBy: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type FeedCollection = z.infer<typeof FeedCollection>;

export const CreateCollectionRequest = z.object({ name: ShownText(120, 1) });
export const AddCollectionEntryRequest = z.object({
  type: z.enum(['ITEM', 'OUTFIT']),
  id: z.string().min(1).max(128),
});
export const CollectionParams = z.object({
  id: z.string().min(1).max(128),
  collectionId: z.string().min(1).max(128),
});
/** One entry of a collection, as its path names it: `.../entries/{type}/{entryId}`. */
export const CollectionEntryParams = CollectionParams.extend({
  type: AddCollectionEntryRequest.shape.type,
  entryId: z.string().min(1).max(128),
});
/** Every collection of the household (at most 200), newest first, each with its newest 20 entries. */
export const CollectionList = z.object({ items: z.array(FeedCollection) });

/** Offers as the feed shows them (the commerce Offer, kept loose so the feed doesn't break on new fields). */
export const FeedOffer = z.looseObject({
  offerId: z.string(),
  title: z.string(),
  price: z.number(),
  currency: z.string(),
  url: z.string(),
  updatedAt: Timestamp,
});

export const FeedEntry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ITEM'), id: z.string(), at: Timestamp, item: WardrobeItem }),
  z.object({ type: z.literal('OUTFIT'), id: z.string(), at: Timestamp, outfit: Outfit }),
  z.object({ type: z.literal('OFFER'), id: z.string(), at: Timestamp, offer: FeedOffer }),
  z.object({ type: z.literal('COLLECTION'), id: z.string(), at: Timestamp, collection: FeedCollection }),
]);
export type FeedEntry = z.infer<typeof FeedEntry>;

/** Newest first. A source that could not be read (commerce down) is listed, not fatal. */
export const Feed = z.object({
  source: FeedSource,
  entries: z.array(FeedEntry),
  unavailableSources: z.array(FeedSource),
});
export type Feed = z.infer<typeof Feed>;
