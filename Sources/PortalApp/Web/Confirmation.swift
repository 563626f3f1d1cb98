/// The form of a page that asks before something is undone or removed: its button sends
/// `confirm=1`. A form without it (an older page's, or one made elsewhere) is sent to the
/// question instead of acting.
struct Confirmation: PostedForm {
    let confirmed: Bool

    init(_ form: FormReader) throws(PageRefusal) {
        confirmed = form.text("confirm") == "1"
    }
}
