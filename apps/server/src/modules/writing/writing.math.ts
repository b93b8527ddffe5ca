import { mml2omml } from 'mathml2omml';
import temml from 'temml';

/**
 * A LaTeX formula of the draft as a Word equation (OMML, the `m:oMath` element Word edits natively):
 * LaTeX -> MathML by temml, MathML -> OMML by mathml2omml. Answers null when the LaTeX does not
 * parse (the caller then keeps it as visible text, so nothing is lost).
 */
export function latexToOmml(latex: string): string | null {
  let mathml: string;
  try {
    mathml = temml.renderToString(latex, { xml: true, throwOnError: true });
  } catch {
    return null;
  }
  const omml = mml2omml(mathml);
  if (!omml.includes('<m:oMath')) return null;
  // The document's root already declares the m: and w: namespaces.
  return omml.replace(/ xmlns:[a-z]+="[^"]*"/g, '');
}
