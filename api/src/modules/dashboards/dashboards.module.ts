import { driveConnectFigures, websiteHostingFigures } from '@axel/projections/dashboards/dashboards.queries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireStaff } from '../../http/auth';
import type { Module } from '../../module';
import { DriveConnectSchema, GrafanaSchema, WebsiteHostingSchema } from './dashboards.schema';

const tags = ['admin'];

const dashboardRoutes = (ctx: AppContext) => async (fastify: FastifyInstance) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/admin/axel-website-hosting/dashboard/',
    {
      schema: {
        tags,
        summary: 'Staff: content served to visitors (shares, their opens and downloads, Secure Fetch links, top sharers)',
        response: { 200: WebsiteHostingSchema },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      return websiteHostingFigures(ctx.pool, ctx.now());
    },
  );
  app.get(
    '/api/admin/axel-drive-connect/dashboard/',
    {
      schema: {
        tags,
        summary: 'Staff: how accounts connect (storages and CloudLockers, sign-up apps, recent sign-ins, second factors, database access)',
        response: { 200: DriveConnectSchema },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      return driveConnectFigures(ctx.pool, ctx.now());
    },
  );
  app.get(
    '/api/admin/grafana/',
    {
      schema: {
        tags,
        summary: "Staff: where the operators' Grafana dashboard is (GRAFANA_URL), or null when it is not configured",
        response: { 200: GrafanaSchema },
      },
    },
    async (request) => {
      await requireStaff(ctx, request);
      return { url: ctx.config.GRAFANA_URL ?? null };
    },
  );
};

/** The spec's AXEL website hosting and AXEL Drive Connect dashboards (§7), answered from the read models. */
export const dashboardsModule: Module = { name: 'dashboards', routes: dashboardRoutes };
