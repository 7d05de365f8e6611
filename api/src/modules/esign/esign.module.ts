import { esignEventDefinitions, esignPackageDecider, esignPackageStreamName, type EsignCommand } from '@axel/domain';
import { handleCommand } from '@axel/platform';
import { esignProjection } from '@axel/projections/esign/esign.projection';
import { esignPackageIdsOf } from '@axel/projections/esign/esign.queries';
import type { Module } from '../../module';
import type { StorageBytesOf } from '../files/storage.bytes';
import { esignReceiverRoutes } from './esign.receiver.routes';
import { esignOwnerRoutes } from './esign.routes';
import { loadSealKey, type SealKey } from './esign.seal-key';
import type { EsignPlanOf } from './esign.service';
import { dropPackageDocuments, esignMigrations } from './esign.store';

/**
 * Electronic signing: packages of PDFs sent to signers, signed through their links with the
 * package password, and sealed into one PAdES-signed PDF with a certificate page when the last
 * signer finishes. Gated to the plans with the `esign` feature (billing's `planOf`).
 */
export const createEsignModule = (deps: { readonly bytes: StorageBytesOf; readonly planOf: EsignPlanOf }): Module => {
  let sealKey: SealKey | undefined;
  return {
    name: 'esign',
    events: esignEventDefinitions,
    projections: [esignProjection],
    migrations: esignMigrations,
    personalData: {
      esign_packages: ['name', 'message'],
      esign_entries: ['name'],
      esign_signers: ['name', 'email'],
    },
    routes: (ctx) => async (app) => {
      const key = () => (sealKey ??= loadSealKey(ctx.config.dataDir));
      await app.register(esignOwnerRoutes(ctx, { bytes: deps.bytes(ctx), planOf: deps.planOf }));
      await app.register(esignReceiverRoutes(ctx, { sealKey: key }));
    },
    // every package of the purged owner: its stream's key is destroyed and its documents (esign_documents) dropped
    async forget(ctx, userId, actor) {
      for (const packageId of await esignPackageIdsOf(ctx.pool, userId)) {
        await handleCommand(
          ctx.commands,
          esignPackageDecider,
          esignPackageStreamName(packageId),
          { type: 'ForgetPackage', data: {}, metadata: { now: actor.now } } as EsignCommand,
          actor,
        );
        await dropPackageDocuments(ctx.pool, packageId);
      }
    },
  };
};
