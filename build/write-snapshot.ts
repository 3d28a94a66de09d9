/** Stage 6: write the manifest last (it marks a complete snapshot) and swap the snapshot in. */
import { MANIFEST_FILE } from "../api/_core/layout.js";
import type { BuildContext } from "./context.js";

export async function writeSnapshot(ctx: BuildContext): Promise<void> {
  if (!ctx.manifest) throw new Error("writeSnapshot runs after renderSnapshot");
  ctx.manifest.snapshotId = ctx.output.digest();
  ctx.output.write(MANIFEST_FILE, Buffer.from(`${JSON.stringify(ctx.manifest, null, 2)}\n`));
  await ctx.output.commit();
}
