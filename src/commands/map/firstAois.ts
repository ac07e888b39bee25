import type { Aoi } from '../../api/records';
import { orReason } from '../../ui/showError';
import type { CommandServices } from '../services';

/**
 * The first page of the person's AOIs (100), or why it cannot be read: the map and the
 * pickers that offer AOIs go on without them and say why they are missing.
 */
export async function firstAois(services: Pick<CommandServices, 'connection'>): Promise<{ aois: Aoi[] } | { reason: string }> {
  const got = await orReason(async () => (await (await services.connection.getClient()).aois.listPage({ offset: 0, limit: 100 })).items);
  return 'reason' in got ? got : { aois: got.value };
}
