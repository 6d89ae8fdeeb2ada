/**
 * The monster company's departments (its roles) and what each one works with: the systems it uses
 * (an archetype, how many of the company's products of it, and the kinds of object it handles
 * there) and the plugins it installed. Hand-written vocabulary; `roles.ts` turns it into the
 * company's role map for the generated catalog (where a department also gets the tools of its own
 * workflows, `data/workflows.json`, on every product).
 *
 * A department handles few kinds of object in most systems, so most roles see tens to a few
 * hundred tools; the platform roles (platform, IT, business systems) run whole servers and see
 * thousands. The departments are data (`data/departments.json`, checked against the generator data
 * schema and against the vocabulary when this module loads).
 */
import departmentsData from '../data/departments.json' with { type: 'json' };
import { generatorDataErrors } from '../data-schema.ts';
import { ARCHETYPES } from './archetypes.ts';
import { PLUGINS } from './plugins.ts';

/** One system a department uses. */
export interface SystemSpec {
  archetype: string;
  /** The kinds of object the department handles there (every operation on them), or `all` (whole servers). */
  objects: readonly string[] | 'all';
  /** How many of the company's products of the archetype it uses, the main ones (vocabulary order) first: default 1. */
  products?: number | 'all';
}

export interface DepartmentSpec {
  /** The role's name (`sre`): the departments of `data/workflows.json` are among them. */
  name: string;
  description: string;
  systems: readonly SystemSpec[];
  /** Plugins the department installed (every tool of each). */
  plugins: readonly string[];
}

/** Plugins every role has: productivity and IT self-service. */
export const COMPANY_PLUGINS: readonly string[] = departmentsData.companyPlugins;

export const COMPANY_DEPARTMENTS: readonly DepartmentSpec[] = departmentsData.departments as DepartmentSpec[];

/** Errors in the departments above: unknown archetypes, objects and plugins, repeated names. */
export function departmentErrors(departments: readonly DepartmentSpec[] = COMPANY_DEPARTMENTS, companyPlugins: readonly string[] = COMPANY_PLUGINS): string[] {
  const errors: string[] = [];
  const plugins = new Set(PLUGINS.map((p) => p.name));
  const names = new Set<string>();
  for (const d of departments) {
    if (names.has(d.name)) errors.push(`${d.name}: department named twice`);
    names.add(d.name);
    for (const s of d.systems) {
      const a = ARCHETYPES.find((x) => x.key === s.archetype);
      if (!a) {
        errors.push(`${d.name}: unknown archetype ${s.archetype}`);
        continue;
      }
      if (s.objects !== 'all') for (const o of s.objects) if (!a.objects.some((x) => x.key === o)) errors.push(`${d.name}: ${s.archetype} has no object ${o}`);
      if (s.products !== undefined && s.products !== 'all' && !(Number.isInteger(s.products) && s.products >= 1))
        errors.push(`${d.name}: ${s.archetype}: products must be a whole number ≥ 1 or 'all'`);
    }
    for (const p of d.plugins) if (!plugins.has(p)) errors.push(`${d.name}: unknown plugin ${p}`);
  }
  for (const p of companyPlugins) if (!plugins.has(p)) errors.push(`company plugins: unknown plugin ${p}`);
  return errors;
}

const errors = [...generatorDataErrors('departments', departmentsData), ...departmentErrors()];
if (errors.length) throw new Error(`src/generate/data/departments.json is invalid:\n${errors.join('\n')}`);
