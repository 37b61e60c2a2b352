/** resources/list, resources/templates/list and resources/read over the workspace's provider. */

import { RpcError } from "../jsonrpc/errors.ts";
import type { MethodSpec } from "../server/method.ts";
import type { ResourceProvider } from "../resources/resource.ts";

export function resourceMethods(provider: ResourceProvider): Map<string, MethodSpec> {
  const list: MethodSpec = {
    beforeInit: false,
    handle(params, ctx) {
      const cursor = params?.cursor;
      if (cursor !== undefined && typeof cursor !== "string") {
        throw RpcError.invalidParams("Invalid cursor");
      }
      return provider.list(cursor, ctx.signal).then((page) =>
        JSON.stringify(
          page.nextCursor === undefined
            ? { resources: page.resources }
            : { resources: page.resources, nextCursor: page.nextCursor },
        )
      );
    },
  };

  const templates: MethodSpec = {
    beforeInit: false,
    instant: true,
    handle(params) {
      if (params?.cursor !== undefined) throw RpcError.invalidParams("Invalid cursor");
      return JSON.stringify({ resourceTemplates: provider.templates() });
    },
  };

  const read: MethodSpec = {
    beforeInit: false,
    handle(params, ctx) {
      const uri = params?.uri;
      if (uri === undefined) throw RpcError.invalidParams("Missing required parameter: uri");
      if (typeof uri !== "string") {
        throw RpcError.invalidParams("Invalid parameter: uri must be a string");
      }
      return provider.read(uri, ctx.signal).then((result) =>
        JSON.stringify({ contents: result.contents })
      );
    },
  };

  return new Map([
    ["resources/list", list],
    ["resources/templates/list", templates],
    ["resources/read", read],
  ]);
}
