import RestProtocol
import Testing

@Suite("TimerPathElement")
struct TimerPathElementTests {
    @Test(
        "ids become path elements as sd_bus_path_encode writes them",
        arguments: [
            ("default", "default"), ("squat", "squat"), ("Squat2", "Squat2"), ("bench-press", "bench_2dpress"),
            ("plank_2", "plank_5f2"), ("_", "_5f"), ("-", "_2d"), ("1", "_31"), ("2x", "_32x"), ("a-b_c", "a_2db_5fc"),
        ])
    func encodes(id: String, element: String) {
        #expect(TimerPathElement.encode(id) == element)
        #expect(TimerPathElement.decode(element) == id)
        #expect(RestBus.timerPath(id: id) == "/io/restd/Rest1/timer/" + element)
    }

    @Test(
        "a path element that is no id's encoding decodes to nothing",
        arguments: [
            "bench_2Dpress", "a_2", "a_zz", "_", "a_61", "1x", "_5",
        ])
    func refuses(element: String) {
        // "_" is the encoding of the empty id, which is no timer's.
        let decoded = TimerPathElement.decode(element)
        #expect(decoded == nil || decoded == "", "\(element) → \(String(describing: decoded))")
    }
}
