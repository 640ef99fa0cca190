/** The list/get/create/update/delete set that every collection of the API shares. */
import type { Codec } from '../codec.ts';
import type { Page } from '../pagination.ts';
import { resourcePath } from '../path.ts';
import type { ListParams, Requester } from '../requester.ts';

/** Largest page the list endpoints accept; fewer round trips when walking everything. */
export const MAX_PAGE_SIZE = 100;

export interface ListAllOptions {
  pageSize?: number | undefined;
}

export interface CrudResource<T, CreateInput, UpdateInput> {
  list(params?: ListParams): Promise<Page<T>>;
  /** Every item across all pages: `for await (const item of resource.listAll())`. */
  listAll(options?: ListAllOptions): AsyncGenerator<T>;
  get(id: string): Promise<T>;
  create(input: CreateInput): Promise<T>;
  update(id: string, input: UpdateInput): Promise<T>;
  /** Resolves once the API confirms (204, or 200 with any body). */
  delete(id: string): Promise<void>;
}

/** `collection` is the path under the base URL, e.g. `/monitors`. */
export function crudResource<T, CreateInput, UpdateInput>(
  requester: Requester,
  codec: Codec<T>,
  collection: string,
): CrudResource<T, CreateInput, UpdateInput> {
  const item = (id: string) => collection + resourcePath`/${id}`;
  return {
    list: (params) => requester.page(codec, collection, params),
    listAll: (options) => requester.all(codec, collection, options?.pageSize ?? MAX_PAGE_SIZE),
    get: async (id) => requester.one(codec, { method: 'GET', path: item(id) }),
    create: (input) => requester.one(codec, { method: 'POST', path: collection, body: input }),
    update: async (id, input) => requester.one(codec, { method: 'PATCH', path: item(id), body: input }),
    delete: async (id) => requester.none({ method: 'DELETE', path: item(id) }),
  };
}
