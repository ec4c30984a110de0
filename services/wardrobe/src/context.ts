import type { HouseholdMembers } from '@hs/service-kit';
import type { BlobStorage } from '@hs/storage';
import type { CollectionRepository } from './adapters/collection-repository.ts';
import type { CommerceOffers } from './adapters/commerce-offers.ts';
import type { ItemRepository } from './adapters/item-repository.ts';
import type { OutfitRepository } from './adapters/outfit-repository.ts';
import type { UploadUsageRepository } from './adapters/upload-usage-repository.ts';
import type { WardrobeConfig } from './config.ts';

export interface WardrobeContext {
  config: WardrobeConfig;
  items: ItemRepository;
  outfits: OutfitRepository;
  collections: CollectionRepository;
  storage: BlobStorage;
  uploadUsage: UploadUsageRepository;
  members: HouseholdMembers;
  offers: CommerceOffers;
}
