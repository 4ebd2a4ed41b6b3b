import { html } from './html';

describe('html templates', () => {
  it('escapes every interpolated text, attribute quotes included', () => {
    const name = `"><script>alert('x')</script>`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</p>',
    );
  });

  it('keeps nested templates as markup, joins lists and renders nothing for null, undefined and false', () => {
    const items = ['a&b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&amp;b</li><li>c</li></ul>0');
  });
});
