import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorBodySchema } from '../../domain/errors';
import type { Permission } from '../../domain/permissions';
import type { ResourceDeclaration } from '../../domain/resources/declare';
import type { RecordsOf } from '../../domain/resources/records-of';
import type { SyncedResource } from '../../domain/sync';
import { records } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { patientForCall } from './access';
import { recordDelivery } from './care-activity';
import type { StoredAnswer } from './idempotency';
import { listEntryFor } from './list-entries';
import {
  accessChecks,
  answerAbout,
  defineMutations,
  deleteAndAnswer,
  requireOwnUpload,
  type MutationContext,
  type ResourceMutations,
} from './record-mutations';
import { createRecord, toWire, updateRecord, wireColumns, type WireRow } from './records';

// A synced resource that needs no code of its own on the server: its declaration's `records` (its fields'
// schema and messages, domain/resources/records-of.ts) and its permissions make the whole of it. Creates,
// edits and deletes are checked and answered as every record's are (the permission on the patient, the
// beta policy, a file the caller uploaded, the per-field merge, a caregiver's writes on the patient's
// activity log, a receipt for a caller who may change but not read), and offered by REST and in a pushed
// batch alike. Its reads: GET {path}?patient= (newest first) and GET {path}/:id.

export type ServerResource = {
  mutations: ResourceMutations;
  /** Its reads, registered under its path; absent when another route file serves them. */
  reads?: FastifyPluginAsyncZod;
};

type GenericDeclaration = ResourceDeclaration & { key: SyncedResource; records: RecordsOf };

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function recordResource(declaration: GenericDeclaration): ServerResource {
  const { key, records: shapes, permissions } = declaration;
  const { messages } = shapes;
  const permission = (action: 'add' | 'edit' | 'delete'): Permission =>
    (permissions[action] ?? permissions.read) as Permission;
  const read = permissions.read as Permission;
  /** Only the patient writes a resource that names no permission for it: a caregiver is refused. */
  const mayWrite = (context: MutationContext, action: 'add' | 'edit' | 'delete') => {
    if (!permissions[action] && !context.auth.patientId)
      throw new HttpError(403, 'Only the patient can do this.');
  };
  const asRecord = (row: WireRow) => toWire(row);
  const fileFields = Object.keys(shapes.fields.shape).filter((field) => field.endsWith('attachment_key'));
  const checkFiles = async (context: MutationContext, fields: Record<string, unknown>) => {
    for (const field of fileFields)
      await requireOwnUpload(context, fields[field] as string | null | undefined, messages.notFound);
  };

  const recordFor = (context: MutationContext, id: string, action: 'edit' | 'delete') =>
    listEntryFor(
      context.tx,
      context.access,
      { resource: key, id, notFound: messages.notFound, read },
      (row) => context.access.mayActOn(context.tx, row.patientId, permission(action)),
      true,
    );

  async function create(
    context: MutationContext,
    id: string,
    body: z.output<RecordsOf['create']>,
  ): Promise<StoredAnswer> {
    const {
      id: _id,
      patient_id,
      base_version: _base,
      changed_at,
      ...fields
    } = body as Record<string, unknown> & {
      patient_id: string;
      changed_at?: number;
    };
    await context.access.requireBetaPolicy(context.tx);
    mayWrite(context, 'add');
    const patientId = await context.access.patientForCall(context.tx, patient_id, permission('add'));
    await checkFiles(context, fields);
    const row = await createRecord(
      context.tx,
      {
        resource: key,
        id,
        patientId,
        createdBy: context.auth.userId,
        // Who made it, from the token, never from the body.
        fields: { ...fields, caregiver_id: context.auth.caregiverId },
        changedAt: changed_at,
        existsMessage: messages.exists,
      },
      context.writeOptions,
    );
    return answerAbout(
      context,
      { patientId, permission: permission('add') },
      {
        statusCode: 201,
        body: { success: true, message: messages.saved, data: asRecord(row), merged: false },
      },
    );
  }

  async function update(
    context: MutationContext,
    id: string,
    body: z.output<RecordsOf['update']>,
  ): Promise<StoredAnswer> {
    const { base_version, changed_at, ...patch } = body as Record<string, unknown> & {
      base_version?: number;
      changed_at?: number;
    };
    await context.access.requireBetaPolicy(context.tx);
    mayWrite(context, 'edit');
    await checkFiles(context, patch);
    const current = await recordFor(context, id, 'edit');
    // A delete wins over an edit, and a deleted record has no fields left to check the edit against.
    if (current.deletedAt) throw new HttpError(409, messages.deletedElsewhere);
    // The whole record is checked again as edited: two fields that must agree (a reading's kind and its
    // unit) may be changed one at a time.
    const merged = {
      ...current.data,
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    };
    const checked = shapes.checkedFields.safeParse(merged);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new HttpError(400, issue?.message ?? 'The record is not valid.', undefined, {
        errors: checked.error.issues.map((problem) => ({
          msg: problem.message,
          path: problem.path.join('.'),
        })),
      });
    }
    const { row, merged: wasMerged } = await updateRecord(
      context.tx,
      current,
      { patch, baseVersion: base_version, changedAt: changed_at, deletedMessage: messages.deletedElsewhere },
      context.writeOptions,
    );
    return answerAbout(
      context,
      { patientId: current.patientId, permission: permission('edit') },
      {
        statusCode: 200,
        body: { success: true, message: messages.saved, data: asRecord(row), merged: wasMerged },
      },
    );
  }

  async function remove(context: MutationContext, id: string): Promise<StoredAnswer> {
    await context.access.requireBetaPolicy(context.tx);
    mayWrite(context, 'delete');
    const current = await recordFor(context, id, 'delete');
    return deleteAndAnswer(context, current, permission('delete'), messages.deleted);
  }

  const mutations = defineMutations({
    path: declaration.path,
    notFound: messages.notFound,
    rest: { tags: [key], idParams: shapes.idParams },
    create: { body: shapes.create, run: create, rest: { response: shapes.one } },
    update: { body: shapes.update, run: update, rest: { response: shapes.one } },
    delete: { run: remove, rest: { response: shapes.deleted } },
  });

  const reads: FastifyPluginAsyncZod = async (app) => {
    app.get(
      '/',
      {
        schema: {
          tags: [key],
          querystring: shapes.listQuery,
          response: { 200: shapes.list, ...errors },
        },
      },
      async (request) => {
        const patientId = await patientForCall(app.db, request.auth, request.query.patient, read);
        const rows = await app.db
          .select(wireColumns)
          .from(records)
          .where(and(eq(records.resource, key), eq(records.patientId, patientId), isNull(records.deletedAt)))
          .orderBy(desc(records.createdAt));
        await recordDelivery(app.db, request.auth, { patientId, resource: key, count: rows.length });
        return { success: true as const, data: rows.map(asRecord) };
      },
    );
    app.get(
      '/:id',
      {
        schema: { tags: [key], params: shapes.idParams, response: { 200: shapes.one, ...errors } },
      },
      async (request) => {
        const access = accessChecks(request.auth, { cached: false });
        const row = await listEntryFor(
          app.db,
          access,
          { resource: key, id: request.params.id, notFound: messages.notFound, read },
          (found) => access.mayActOn(app.db, found.patientId, read),
        );
        await recordDelivery(app.db, request.auth, { patientId: row.patientId, resource: key, count: 1 });
        return { success: true as const, message: '', data: asRecord(row), merged: false };
      },
    );
  };

  return { mutations, reads };
}
