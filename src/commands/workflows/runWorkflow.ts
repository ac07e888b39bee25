/**
 * "Run Workflow…": the workflow is read (a workflow without blocks or with validation errors
 * is not offered, and says why, naming the components), priced (`GET …/estimate`; an estimate
 * that fails means no run is offered), confirmed in the priced confirmation whose safe choice
 * is the default, and started with exactly one `POST …/jobs` per confirmation, never resent.
 * The new job is then shown under its workflow in the Projects view and followed by the
 * watcher, which announces it once when it ends.
 */
import { l10n } from 'vscode';
import { ApiError, collect, mayHaveActed, valErrorsOf, type EoClient, type Job, type ValError, type WorkflowListItem } from '../../api';
import { WorkflowNode } from '../../explorer/nodes/workflows';
import { dateTime, tokens } from '../../format';
import { describeError, inStep, unlessNotSupported } from '../../ui/showError';
import { busy } from '../insights/pickers';
import type { CommandServices } from '../services';
import { confirmPrice } from './confirmPrice';
import { revealJob } from './jobs';
import { valErrorLines } from './valErrors';
import { askWhatHappened, idsBefore, newestNew } from '../lostAnswer';

/** From the Command Palette: a project, then one of its workflows. */
async function pickWorkflow(services: CommandServices, client: EoClient): Promise<WorkflowListItem | undefined> {
  const projects = await busy(l10n.t('Loading projects…'), () => collect(client.projects.iterate({ pageSize: 100, cap: 1000 })));
  const project = (
    await services.ui.pick(
      projects.map((p) => ({ label: p.name || p.title, description: p.title !== p.name ? p.title : undefined, project: p })),
      { title: l10n.t('Run Workflow: project'), placeHolder: l10n.t('Which project is the workflow in?'), ignoreFocusOut: true },
    )
  )?.project;
  if (!project) return undefined;
  const workflows = await busy(l10n.t('Loading the workflows of {0}…', project.name), () =>
    collect(client.workflows.iterate({ project_id: project.id }, { pageSize: 100, cap: 1000 })),
  );
  if (workflows.length === 0) {
    await services.ui.message('info', l10n.t('Project {0} has no workflows yet.', project.name), {});
    return undefined;
  }
  return (
    await services.ui.pick(
      workflows.map((w) => ({ label: w.name, description: w.description, detail: l10n.t('created {0}', dateTime(w.created_at)), workflow: w })),
      { title: l10n.t('Run Workflow: {0}', project.name), placeHolder: l10n.t('Which workflow to run?'), matchOnDescription: true, ignoreFocusOut: true },
    )
  )?.workflow;
}

async function refused(services: CommandServices, name: string, errors: readonly ValError[], started: boolean): Promise<void> {
  await services.ui.message(
    'error',
    started ? l10n.t('The service refused to run {0}: its blocks do not fit together.', name) : l10n.t('{0} cannot run: its blocks do not fit together.', name),
    { modal: true, detail: valErrorLines(l10n, errors).join('\n') },
  );
}

/**
 * The workflow read and priced: its estimate in tokens, or undefined when it is not offered
 * (no blocks, validation errors, a service without workflows or estimates), said in words.
 */
async function price(services: CommandServices, client: EoClient, item: WorkflowListItem): Promise<number | undefined> {
  const name = item.name;
  const unsupported = (err: ApiError): string =>
    err.path.includes('/estimate')
      ? l10n.t('This service does not price workflows, so {0} is not offered to run.', name)
      : l10n.t('This service does not support workflows.');
  const read = await unlessNotSupported(services, unsupported, () =>
    busy(l10n.t('Pricing {0}…', name), async () => {
      const w = await client.workflows.get(item.id, item.project_id);
      // Nothing to price when the workflow cannot run.
      if (w.spec?.blocks.length === 0 || w.val_errors.length > 0) return [w, 0] as const;
      return [w, await client.workflows.estimate(item.id)] as const;
    }),
  );
  if (!read) return undefined;
  const [workflow, estimate] = read;
  if (workflow.spec?.blocks.length === 0) {
    await services.ui.message('warning', l10n.t('{0} has no blocks: there is nothing to run. Add blocks to it in the workflow editor first.', name), {});
    return undefined;
  }
  if (workflow.val_errors.length > 0) {
    await refused(services, name, workflow.val_errors, false);
    return undefined;
  }
  return estimate;
}

export interface RunWorkflowResult {
  job: Job;
}

/**
 * `given`: a workflow (row or record); none means the selected workflow row, else the person
 * picks a project and one of its workflows.
 */
export async function runWorkflow(services: CommandServices, given: WorkflowListItem | undefined): Promise<RunWorkflowResult | undefined> {
  const client = await services.connection.getClient();
  const selected = services.explorer?.selected('projects')[0];
  const item = given ?? (selected instanceof WorkflowNode ? selected.record : await pickWorkflow(services, client));
  if (!item) return undefined;
  const name = item.name;
  const priced = await inStep(l10n.t('Pricing {0} (nothing was run)', name), () => price(services, client, item));
  if (priced === undefined) return undefined;
  const estimate = priced;
  const run = l10n.t('Run');
  const ok = await confirmPrice(services, {
    title: l10n.t('Run {0} for about {1}?', name, tokens(estimate)),
    spend: run,
    cost: l10n.t('about {0}', tokens(estimate)),
    summary: [l10n.t('The tokens are spent as the job runs.'), item.description ?? ''],
  });
  if (!ok) return undefined;
  const sent = await sendJob(services, client, item);
  if (sent === 'again') return runWorkflow(services, item);
  if (!sent) return undefined;
  const { job, lost } = sent;
  if (job.val_errors.length > 0) {
    await refused(services, name, job.val_errors, true);
    return undefined;
  }
  services.log.info(`Workflow ${item.id} started job ${job.id}`);
  // Followed until it ends, with its row on screen or not, and announced once then.
  services.watcher.follow('job', job.id, { parent: item.id, hint: { where: name }, record: job });
  void services.ui.message(
    'info',
    lost
      ? l10n.t(
          'The answer was lost, but the service has the job: {0} started as job {1}. Its tasks show under the workflow in the Projects view.',
          name,
          job.id,
        )
      : l10n.t('{0} started. Its tasks show under the workflow in the Projects view.', name),
    {},
  );
  await revealJob(services, item, job).catch((err: unknown) => services.log.warn(`Could not show job ${job.id} in the Projects view: ${describeError(err)}`));
  return { job };
}

/**
 * The one POST of a confirmed run: the job, undefined when refused (said), or 'again' when the
 * answer was lost, nothing was started and the person asked to run it again. A lost answer is
 * never sent again: the workflow's jobs are listed and one that was not there before is looked
 * for (../lostAnswer.ts).
 */
async function sendJob(services: CommandServices, client: EoClient, item: WorkflowListItem): Promise<{ job: Job; lost: boolean } | 'again' | undefined> {
  const name = item.name;
  const before = await idsBefore(() => client.workflows.jobs(item.id), services, `the jobs of ${item.id}`);
  const sentAt = Date.now();
  try {
    return { job: await busy(l10n.t('Starting {0}…', name), () => client.workflows.run(item.id, item.project_id)), lost: false };
  } catch (err) {
    // Recovered here: refusals the person can act on, and a lost answer. Anything else goes to
    // the command wrapper, which never offers Retry for this command (a job costs).
    const errors = valErrorsOf(err);
    if (errors.length > 0) {
      await refused(services, name, errors, true);
      return undefined;
    }
    if (err instanceof ApiError && err.status === 409) {
      await services.ui.message('warning', l10n.t('{0} already has a job that has not finished: {1} Start another when it has.', name, describeError(err)), {});
      return undefined;
    }
    if (!mayHaveActed(err)) throw err;
    const lost = await askWhatHappened(services, err, async () => newestNew(await client.workflows.jobs(item.id), { before, sentAt }, () => true), {
      what: `a job of workflow ${item.id}`,
      asking: l10n.t('No answer: asking the service whether {0} started a job…', name),
      nothing: (f) => l10n.t('The service did not answer ({0}). {1} has no new job: nothing was started. Run it again?', f, name),
      again: l10n.t('Run Again…'),
      unknown: (f, reason) =>
        l10n.t(
          '{0} may or may not have started a job ({1}), and the service could not be asked ({2}). Check its jobs in the Projects view before you try again, so you do not pay twice.',
          name,
          f,
          reason,
        ),
      check: { label: l10n.t('Show the Workflow'), run: async () => services.explorer?.reveal('project', item.project_id, { expand: true }) },
    });
    if (lost.kind === 'placed') return { job: lost.value, lost: true };
    return lost.kind === 'nothing' && lost.again ? 'again' : undefined;
  }
}
