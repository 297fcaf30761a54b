/// A test written in SQL, and how far it can be trusted. An exact fragment is true, false or
/// NULL exactly where flt's test is true, false or unknown. A narrowing fragment is true
/// wherever flt's test is true (and perhaps elsewhere): it may cut rows in the database, and
/// flt then checks the test itself on the rows that come back.
struct SQLFragment {
  var text: String
  var exact: Bool

  init(_ text: String, exact: Bool = true) {
    self.text = text
    self.exact = exact
  }
}
