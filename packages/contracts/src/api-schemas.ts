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
export const apiSchemas = z.registry<{ id: string }>();

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
for (const [schema, id] of named) schema.register(apiSchemas, { id });
