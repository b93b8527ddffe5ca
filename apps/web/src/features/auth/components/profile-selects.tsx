import { Select } from 'antd';
import { EDUCATION_OPTIONS, MAJOR_GROUPS } from '../texts';

interface ProfileSelectProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  placeholder?: string;
  allowClear?: boolean;
  id?: string;
  'aria-label'?: string;
}

type Option = { label: string; value: string };

const majorOptions = MAJOR_GROUPS.map((group) => ({
  label: group.label,
  options: group.options.map((major): Option => ({ label: major, value: major })),
}));
const knownMajors = new Set(MAJOR_GROUPS.flatMap((group) => group.options));

const educationOptions = EDUCATION_OPTIONS.map(
  (education): Option => ({ label: education, value: education }),
);

/** 专业: grouped by discipline, searchable; a stored value outside the list stays selectable. */
export function MajorSelect({ value, onChange, ...props }: ProfileSelectProps) {
  const options =
    value && !knownMajors.has(value) ? [{ label: value, value }, ...majorOptions] : majorOptions;
  return (
    <Select<string>
      {...props}
      value={value || undefined}
      onChange={(next) => onChange?.(next ?? null)}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      virtual={false}
    />
  );
}

/** 学历; a stored value outside the list stays selectable. */
export function EducationSelect({ value, onChange, ...props }: ProfileSelectProps) {
  const known = !value || educationOptions.some((option) => option.value === value);
  return (
    <Select<string>
      {...props}
      value={value || undefined}
      onChange={(next) => onChange?.(next ?? null)}
      options={known ? educationOptions : [{ label: value, value }, ...educationOptions]}
    />
  );
}
