import { z } from 'zod';
import { Artifact } from './artifacts.ts';
import { AuditEntry, AuditPage } from './audit.ts';
import { BrowserSession } from './browser.ts';
import { CreateOfferRequest, Offer, OfferPage } from './commerce.ts';
import { ErrorEnvelope } from './common.ts';
import { Household, Member } from './households.ts';
import { LoginRequest, LoginResponse } from './identity.ts';
import {
  Brief,
  ChatRequest,
  CreateMissionRequest,
  Message,
  MissionView,
  StreamTokenResponse,
} from './missions.ts';
import {
  CreatePurchaseRequest,
  IssuedConfirmationToken,
  PurchaseRequest,
  PurchaseRequestView,
  SpendingPolicy,
} from './purchase-requests.ts';
import { VoiceSessionResponse } from './voice.ts';
import { VtoJob, VtoJobList } from './vto.ts';
import { Outfit, WardrobeItem } from './wardrobe.ts';

/**
 * The contracts an app team meets by name: each is one component of the OpenAPI documents
 * (`#/components/schemas/<id>`, `<id>Input` where what a client sends differs from what it
 * reads), so a generated client has `PurchaseRequest`, not an anonymous shape per operation.
 * Its own registry, not zod's global one, so a process that loads these contracts twice (two
 * bundled services) never registers an id twice.
 */
export const apiSchemas = z.registry<{ id: string; examples?: unknown[] }>();

/** What a client typically sends, shown in the documents beside the schema. */
const EXAMPLES: Record<string, unknown> = {
  LoginRequest: { idToken: '<the ID token from your identity provider>' },
  CreatePurchaseRequest: {
    title: 'Navy rain jacket',
    url: 'https://shop.example.com/p/navy-rain-jacket',
    price: 89.9,
    currency: 'EUR',
    size: 'M',
    quantity: 1,
    note: 'For the school trip',
  },
  CreateMissionRequest: { mission_type: 'STYLE', initial_message: 'a rain jacket for my son under 60' },
  ChatRequest: { message: 'something cheaper, in navy' },
  CreateOfferRequest: {
    title: 'Linen summer shirt',
    brand: 'Acme',
    url: 'https://shop.example.com/p/linen-shirt',
    price: 39,
    currency: 'EUR',
    category: 'TOP',
    colors: ['white'],
    season: ['SUMMER'],
    sizes: ['S', 'M', 'L'],
  },
};

const named: Array<[z.ZodType, string]> = [
  [ErrorEnvelope, 'ErrorEnvelope'],
  [LoginRequest, 'LoginRequest'],
  [LoginResponse, 'LoginResponse'],
  [Household, 'Household'],
  [Member, 'Member'],
  [WardrobeItem, 'WardrobeItem'],
  [Outfit, 'Outfit'],
  [Offer, 'Offer'],
  [OfferPage, 'OfferPage'],
  [CreateOfferRequest, 'CreateOfferRequest'],
  [VtoJob, 'TryOnJob'],
  [VtoJobList, 'TryOnJobPage'],
  [CreatePurchaseRequest, 'CreatePurchaseRequest'],
  [PurchaseRequest, 'PurchaseRequest'],
  [PurchaseRequestView, 'PurchaseRequestView'],
  [SpendingPolicy, 'SpendingPolicy'],
  [IssuedConfirmationToken, 'ConfirmationToken'],
  [CreateMissionRequest, 'CreateMissionRequest'],
  [ChatRequest, 'ChatRequest'],
  [MissionView, 'MissionView'],
  [Message, 'Message'],
  [Brief, 'Brief'],
  [StreamTokenResponse, 'StreamToken'],
  [VoiceSessionResponse, 'VoiceSession'],
  [BrowserSession, 'BrowserSession'],
  [Artifact, 'Artifact'],
  [AuditEntry, 'AuditEntry'],
  [AuditPage, 'AuditPage'],
];
for (const [schema, id] of named)
  schema.register(apiSchemas, { id, ...(id in EXAMPLES ? { examples: [EXAMPLES[id]] } : {}) });
